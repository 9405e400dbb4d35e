import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { RadarMonitor, RadarRun, RadarSearch, RunResult } from "../../core/radar/model.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, stamp } from "./fixtures.ts";

/**
 * The contract of radar's stores (core/radar/ports.ts: RunStore, MonitorStore): searches, runs and
 * monitors round-trip whole and change by compare-and-set; trace steps are numbered without gaps
 * or repeats and results claimed once, under any concurrency; every read is scoped by workspace.
 * The memory adapter is the reference; each test makes its own workspace.
 */
export function runRadarStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: radar stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const workspace = async () => (await bootstrapped(s)).workspace.id;

    const searchOf = (ws: string): RadarSearch => ({
      id: uuidv7(),
      workspace_id: ws,
      name: "German fintechs",
      criterion_slug: "german-fintechs",
      kind: "company",
      collection_id: uuidv7(),
      max_results: 100,
      created_by: null,
      created_at: stamp(),
    });

    const runOf = (search: RadarSearch, over: Partial<RadarRun> = {}): RadarRun => ({
      id: uuidv7(),
      workspace_id: search.workspace_id,
      search_id: search.id,
      collection_id: search.collection_id,
      criterion_slug: search.criterion_slug,
      kind: search.kind,
      monitor_id: null,
      state: "priced",
      quote: {
        id: uuidv7(),
        unit_credits: 1,
        max_results: 100,
        estimated_results: 42,
        max_credits: 42,
        criterion_version: 3,
        filter: { industries: ["fintech"], countries: ["DE"], employee_count: { min: 10 } },
        created_at: stamp(),
        expires_at: stamp(),
      },
      results: { matched: 0, created: 0, updated: 0, unchanged: 0 },
      hold_id: null,
      hold_credits: 0,
      charged_credits: 0,
      released_credits: 0,
      error: null,
      cursor: null,
      read: 0,
      lease_until: null,
      attempt: 0,
      actor_id: uuidv7(),
      version: 1,
      created_at: stamp(),
      updated_at: stamp(),
      started_at: null,
      finished_at: null,
      ...over,
    });

    const monitorOf = (search: RadarSearch, over: Partial<RadarMonitor> = {}): RadarMonitor => ({
      id: uuidv7(),
      workspace_id: search.workspace_id,
      search_id: search.id,
      first_run_id: uuidv7(),
      interval: "daily",
      state: "active",
      paused_reason: null,
      budget_credits: 100,
      spent_credits: 0,
      period_start: "2026-11-01T00:00:00.000Z",
      next_run_at: null,
      last_run_id: null,
      version: 1,
      created_at: stamp(),
      updated_at: stamp(),
      ...over,
    });

    const resultOf = (run: RadarRun, providerId: string, position: number, over: Partial<RunResult> = {}): RunResult => ({
      workspace_id: run.workspace_id,
      run_id: run.id,
      provider_id: providerId,
      position,
      entity_id: uuidv7(),
      record_id: uuidv7(),
      outcome: "created",
      fields: { name: "Acme", domain: "acme.example", employee_count: 12 },
      at: stamp(),
      ...over,
    });

    async function stored() {
      const ws = await workspace();
      const search = searchOf(ws);
      await s.radarRuns.insertSearch(search);
      const run = runOf(search);
      await s.radarRuns.insertRun(run);
      return { ws, search, run };
    }

    test("searches and runs round-trip whole; another workspace reads null", async () => {
      const { ws, search, run } = await stored();
      expect(await s.radarRuns.getSearch(ws, search.id)).toEqual(search);
      expect(await s.radarRuns.getRun(ws, run.id)).toEqual(run);
      const other = await workspace();
      expect(await s.radarRuns.getSearch(other, search.id)).toBeNull();
      expect(await s.radarRuns.getRun(other, run.id)).toBeNull();
      expect(await s.radarRuns.getRun(ws, uuidv7())).toBeNull();
      expect(await s.radarRuns.getRun(ws, "not-a-uuid")).toBeNull();
    });

    test("RunStore.updateRun() replaces the run at the version before; a stale or foreign write changes nothing", async () => {
      const { ws, run } = await stored();
      const next: RadarRun = { ...run, state: "queued", hold_id: uuidv7(), hold_credits: 42, version: 2, updated_at: stamp() };
      expect(await s.radarRuns.updateRun(next)).toBe("ok");
      expect(await s.radarRuns.getRun(ws, run.id)).toEqual(next);
      expect(await s.radarRuns.updateRun({ ...run, state: "cancelled", version: 2 })).toBe("version_conflict");
      expect(await s.radarRuns.updateRun({ ...next, workspace_id: await workspace(), version: 3 })).toBe("not_found");
      expect(await s.radarRuns.updateRun({ ...next, id: uuidv7(), version: 3 })).toBe("not_found");
      expect(await s.radarRuns.getRun(ws, run.id)).toEqual(next);
    });

    test("RunStore.updateRun(): of 20 concurrent writers of the same version exactly one wins", async () => {
      const { ws, run } = await stored();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.radarRuns.updateRun({ ...run, read: i + 1, version: 2, updated_at: stamp() })),
      );
      expect(outcomes.filter((o) => o === "ok").length).toBe(1);
      expect(outcomes.filter((o) => o === "version_conflict").length).toBe(19);
      const winner = outcomes.indexOf("ok") + 1;
      expect((await s.radarRuns.getRun(ws, run.id))!.read).toBe(winner);
      // The next write builds on the winner's version.
      expect(await s.radarRuns.updateRun({ ...run, read: 99, version: 3 })).toBe("ok");
    });

    test("RunStore.staleRuns(): queued or running runs whose lease ended or never began, oldest first, at most limit", async () => {
      const ws = await workspace();
      const search = searchOf(ws);
      await s.radarRuns.insertSearch(search);
      const now = new Date();
      const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
      const soon = new Date(now.getTime() + 60_000).toISOString();
      const queued = runOf(search, { state: "queued", updated_at: ago(3_000) });
      const expired = runOf(search, { state: "running", lease_until: ago(1), updated_at: ago(2_000) });
      const leased = runOf(search, { state: "running", lease_until: soon, updated_at: ago(5_000) });
      const done = runOf(search, { state: "completed", updated_at: ago(9_000) });
      for (const r of [queued, expired, leased, done]) await s.radarRuns.insertRun(r);
      const stale = (await s.radarRuns.staleRuns(now.toISOString(), 1_000)).filter((r) => r.workspace_id === ws);
      expect(stale.map((r) => r.id)).toEqual([queued.id, expired.id]);
      expect((await s.radarRuns.staleRuns(now.toISOString(), 1)).length).toBe(1);
    });

    test("RunStore.appendStep(): 50 concurrent appends number 1 to 50, each once; steps() pages after a seq", async () => {
      const { ws, run } = await stored();
      const steps = await Promise.all(
        Array.from(
          { length: 50 },
          (_, i) => s.radarRuns.appendStep(ws, run.id, { type: "provider.page", at: stamp(), data: { i, nested: { ok: true } } }),
        ),
      );
      expect(steps.map((x) => x.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const all = await s.radarRuns.steps(ws, run.id, 0, 100);
      expect(all.map((x) => x.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const bySeq = new Map(steps.map((x) => [x.seq, x]));
      for (const x of all) expect(x).toEqual(bySeq.get(x.seq)!);
      expect((await s.radarRuns.steps(ws, run.id, 45, 3)).map((x) => x.seq)).toEqual([46, 47, 48]);
      expect(await s.radarRuns.steps(await workspace(), run.id, 0, 100)).toEqual([]);
    });

    test("RunStore.claimResult(): of 30 concurrent claims of one prospect one wins; every other sees that claim", async () => {
      const { ws, run } = await stored();
      const claims = Array.from({ length: 30 }, (_, i) => resultOf(run, "c-0001", 1, { record_id: uuidv7(), fields: { i } }));
      const outcomes = await Promise.all(claims.map((c) => s.radarRuns.claimResult(c)));
      const won = outcomes.flatMap((o, i) => (o.claimed ? [claims[i]!] : []));
      expect(won.length).toBe(1);
      for (const o of outcomes) if (!o.claimed) expect(o.existing).toEqual(won[0]!);
      expect((await s.radarRuns.results(ws, run.id, 0, 10)).items).toEqual(won);
    });

    test("RunStore.results() pages by position; countResults() counts each outcome", async () => {
      const { ws, run } = await stored();
      const outcomes = ["created", "updated", "unchanged", "created", "created"] as const;
      const results = outcomes.map((outcome, i) => resultOf(run, `p-${i}`, i + 1, { outcome }));
      for (const r of [...results].reverse()) expect(await s.radarRuns.claimResult(r)).toEqual({ claimed: true });
      const first = await s.radarRuns.results(ws, run.id, 0, 2);
      expect(first).toEqual({ items: results.slice(0, 2), next: 2 });
      expect(await s.radarRuns.results(ws, run.id, 2, 10)).toEqual({ items: results.slice(2), next: null });
      expect(await s.radarRuns.countResults(ws, run.id)).toEqual({ created: 3, updated: 1, unchanged: 1 });
      expect(await s.radarRuns.countResults(await workspace(), run.id)).toEqual({ created: 0, updated: 0, unchanged: 0 });
    });

    test("monitors: round-trip, by search, by id alone; compare-and-set; due ones soonest first", async () => {
      const ws = await workspace();
      const search = searchOf(ws);
      await s.radarRuns.insertSearch(search);
      const m = monitorOf(search);
      await s.radarMonitors.insertMonitor(m);
      expect(await s.radarMonitors.getMonitor(ws, m.id)).toEqual(m);
      expect(await s.radarMonitors.monitorOfSearch(ws, search.id)).toEqual(m);
      expect(await s.radarMonitors.monitorById(m.id)).toEqual(m);
      expect(await s.radarMonitors.getMonitor(await workspace(), m.id)).toBeNull();
      expect(await s.radarMonitors.monitorOfSearch(ws, uuidv7())).toBeNull();

      const now = Date.now();
      const due = { ...m, next_run_at: new Date(now - 1_000).toISOString(), version: 2 };
      expect(await s.radarMonitors.updateMonitor(due)).toBe("ok");
      expect(await s.radarMonitors.updateMonitor({ ...m, state: "paused", version: 2 })).toBe("version_conflict");
      const s2 = searchOf(ws);
      await s.radarRuns.insertSearch(s2);
      const sooner = monitorOf(s2, { next_run_at: new Date(now - 5_000).toISOString() });
      const s3 = searchOf(ws);
      const paused = monitorOf(s3, { state: "paused", paused_reason: "manual", next_run_at: new Date(now - 9_000).toISOString() });
      const s4 = searchOf(ws);
      const later = monitorOf(s4, { next_run_at: new Date(now + 60_000).toISOString() });
      for (const x of [sooner, paused, later]) await s.radarMonitors.insertMonitor(x);
      const found = (await s.radarMonitors.dueMonitors(new Date(now).toISOString(), 1_000)).filter((x) => x.workspace_id === ws);
      expect(found.map((x) => x.id)).toEqual([sooner.id, m.id]);
      expect(found[1]).toEqual(due);
    });

    test("WorkspaceStore.delete() removes the workspace's searches, runs, steps, results and monitors", async () => {
      const { ws, search, run } = await stored();
      await s.radarRuns.appendStep(ws, run.id, { type: "run.priced", at: stamp(), data: {} });
      await s.radarRuns.claimResult(resultOf(run, "c-1", 1));
      const m = monitorOf(search);
      await s.radarMonitors.insertMonitor(m);
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect(await s.radarRuns.getSearch(ws, search.id)).toBeNull();
      expect(await s.radarRuns.getRun(ws, run.id)).toBeNull();
      expect(await s.radarRuns.steps(ws, run.id, 0, 10)).toEqual([]);
      expect((await s.radarRuns.results(ws, run.id, 0, 10)).items).toEqual([]);
      expect(await s.radarMonitors.monitorById(m.id)).toBeNull();
    });
  });
}
