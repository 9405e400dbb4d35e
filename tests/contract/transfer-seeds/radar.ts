import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { RadarMonitor, RadarRun, RadarSearch, RunResult } from "../../../core/radar/model.ts";
import { toMonitorView, toRunView } from "../../../core/radar/run-views.ts";
import type { Stores } from "../../../core/stores.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import { stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

/** What was seeded per workspace, for `verify`. */
interface Seeded {
  searches: RadarSearch[];
  runs: RadarRun[];
  monitors: RadarMonitor[];
}
const seeded = new Map<string, Seeded>();

const searchOf = (ws: string, name: string, over: Partial<RadarSearch> = {}): RadarSearch => ({
  id: uuidv7(),
  workspace_id: ws,
  name,
  criterion_slug: "fintechs-münchen",
  kind: "company",
  collection_id: uuidv7(),
  max_results: 250,
  created_by: null,
  created_at: stamp(),
  ...over,
});

const runOf = (s: RadarSearch, over: Partial<RadarRun>): RadarRun => ({
  id: uuidv7(),
  workspace_id: s.workspace_id,
  search_id: s.id,
  collection_id: s.collection_id,
  criterion_slug: s.criterion_slug,
  kind: s.kind,
  monitor_id: null,
  state: "completed",
  quote: {
    id: uuidv7(),
    unit_credits: 3,
    max_results: 250,
    estimated_results: 2,
    max_credits: 6,
    criterion_version: 7,
    filter: { industries: ["fintech", "Zahlungsverkehr ✓"], countries: ["DE"], employee_count: { min: 10 } },
    created_at: stamp(),
    expires_at: stamp(),
  },
  results: { matched: 2, created: 1, updated: 1, unchanged: 0 },
  hold_id: uuidv7(),
  hold_credits: 6,
  charged_credits: 6,
  released_credits: 0,
  error: null,
  cursor: null,
  read: 2,
  lease_until: null,
  attempt: 1,
  actor_id: uuidv7(),
  version: 9,
  created_at: stamp(),
  updated_at: stamp(),
  started_at: stamp(),
  finished_at: stamp(),
  ...over,
});

const resultOf = (r: RadarRun, providerId: string, position: number, fields: Record<string, unknown>): RunResult => ({
  workspace_id: r.workspace_id,
  run_id: r.id,
  provider_id: providerId,
  position,
  entity_id: uuidv7(),
  record_id: uuidv7(),
  outcome: position === 1 ? "created" : "updated",
  fields,
  at: stamp(),
});

/**
 * Radar's part of the transfer contract: searches, a finished run with its trace and results, a
 * run a worker holds (lease in the past, cursor, attempt: a copy is resumed like the source), a
 * failed one, an active monitor that is due and a paused one.
 */
export const radarSeeder: TransferSeeder = {
  module: "radar",
  async seed(s: Stores, b: BootstrapBundle) {
    const ws = b.workspace.id;
    const search = searchOf(ws, "Fintechs in München — 🚀", { created_by: b.owner.identity.id });
    const quiet = searchOf(ws, "", { kind: "person", max_results: 1 });
    for (const x of [search, quiet]) await s.radarRuns.insertSearch(x);

    const done = runOf(search, {});
    const held = runOf(search, {
      state: "running",
      results: { matched: 1, created: 1, updated: 0, unchanged: 0 },
      charged_credits: 0,
      finished_at: null,
      cursor: "page:2/ümlaut",
      read: 1,
      lease_until: "2026-01-01T00:00:00.000Z",
      attempt: 3,
      error: null,
    });
    const failed = runOf(quiet, {
      state: "failed",
      quote: null,
      hold_id: null,
      hold_credits: 0,
      charged_credits: 0,
      results: { matched: 0, created: 0, updated: 0, unchanged: 0 },
      read: 0,
      error: { code: "PROVIDER_UNAVAILABLE", message: "Der Dienst antwortet nicht ✗" },
      actor_id: null,
      started_at: null,
    });
    for (const r of [done, held, failed]) await s.radarRuns.insertRun(r);

    for (
      const [i, data] of [{ quote: done.quote!.id }, { page: [], big: 9007199254740991, nested: { none: null, text: "ünïcødé 🎯" } }, {}]
        .entries()
    ) {
      await s.radarRuns.appendStep(ws, done.id, { type: i === 2 ? "run.completed" : `run.step_${i}`, at: stamp(), data });
    }
    await s.radarRuns.appendStep(ws, held.id, { type: "run.started", at: stamp(), data: { attempt: 3 } });
    await s.radarRuns.appendStep(ws, failed.id, { type: "run.failed", at: stamp(), data: { error: failed.error } });

    await s.radarRuns.claimResult(resultOf(done, "sample:acme-😀", 1, { name: "Acme GmbH", tags: [], revenue: 12.5, score: null }));
    await s.radarRuns.claimResult(resultOf(done, "sample:Zeta", 2, { name: "Zeta", employees: 2147483647 }));
    await s.radarRuns.claimResult(resultOf(held, "sample:acme-😀", 1, { name: "Acme GmbH" }));
    // More than a read's page (500), keys in mixed case: the keyset pages go on in code-unit order.
    for (let i = 3; i <= 503; i++) {
      await s.radarRuns.claimResult(resultOf(done, `sample:${i % 2 ? "Z" : "a"}${i}`, i, { n: i }));
    }

    const monitor: RadarMonitor = {
      id: uuidv7(),
      workspace_id: ws,
      search_id: search.id,
      first_run_id: done.id,
      interval: "daily",
      state: "active",
      paused_reason: null,
      budget_credits: 1_000_000,
      spent_credits: 6,
      period_start: "2026-11-01T00:00:00.000Z",
      next_run_at: "2026-11-29T04:00:00.000Z",
      last_run_id: held.id,
      version: 4,
      created_at: stamp(),
      updated_at: stamp(),
    };
    const paused: RadarMonitor = {
      ...monitor,
      id: uuidv7(),
      search_id: quiet.id,
      first_run_id: failed.id,
      interval: "weekly",
      state: "paused",
      paused_reason: "insufficient_credits",
      budget_credits: 1,
      spent_credits: 0,
      next_run_at: null,
      last_run_id: null,
      version: 1,
    };
    for (const m of [monitor, paused]) await s.radarMonitors.insertMonitor(m);
    seeded.set(ws, { searches: [search, quiet], runs: [done, held, failed], monitors: [monitor, paused] });
  },

  async verify(source, target, b, expect) {
    const ws = b.workspace.id;
    const { searches, runs, monitors } = seeded.get(ws)!;
    for (const x of searches) expect(await target.radarRuns.getSearch(ws, x.id)).toEqual(await source.radarRuns.getSearch(ws, x.id));
    for (const r of runs) {
      const [a, c] = [await source.radarRuns.getRun(ws, r.id), await target.radarRuns.getRun(ws, r.id)];
      expect(c).toEqual(a);
      expect(toRunView(c!)).toEqual(toRunView(a!));
      // The trace a page at a time, and the results' pages and counts.
      for (const after of [0, 1, 2]) {
        expect(await target.radarRuns.steps(ws, r.id, after, 1)).toEqual(await source.radarRuns.steps(ws, r.id, after, 1));
      }
      expect(await target.radarRuns.results(ws, r.id, 0, 1)).toEqual(await source.radarRuns.results(ws, r.id, 0, 1));
      expect(await target.radarRuns.results(ws, r.id, 1, 10)).toEqual(await source.radarRuns.results(ws, r.id, 1, 10));
      expect(await target.radarRuns.results(ws, r.id, 0, 1000)).toEqual(await source.radarRuns.results(ws, r.id, 0, 1000));
      expect(await target.radarRuns.countResults(ws, r.id)).toEqual(await source.radarRuns.countResults(ws, r.id));
      // Another workspace does not see it.
      expect(await target.radarRuns.getRun(uuidv7(), r.id)).toBeNull();
    }
    // The run a worker held is taken over on the copy as on the source: same lease, cursor, attempt.
    const stale = async (s: Stores) =>
      (await s.radarRuns.staleRuns("2026-06-01T00:00:00.000Z", 1000)).filter((r) => r.workspace_id === ws).map((r) => r.id);
    expect(await stale(target)).toEqual(await stale(source));
    expect(await stale(target)).toEqual([runs[1]!.id]);
    // Its trace goes on after the copied steps; its claimed prospect stays claimed.
    const [done, held] = [runs[0]!, runs[1]!];
    expect((await target.radarRuns.appendStep(ws, held.id, { type: "run.resumed", at: stamp(), data: {} })).seq).toBe(2);
    const again = await target.radarRuns.claimResult(resultOf(held, "sample:acme-😀", 7, {}));
    expect(again).toEqual({ claimed: false, existing: (await source.radarRuns.results(ws, held.id, 0, 1)).items[0] });
    // Compare-and-set goes on from the copied version.
    const cur = (await target.radarRuns.getRun(ws, done.id))!;
    expect(await target.radarRuns.updateRun({ ...cur, version: cur.version + 1, updated_at: stamp() })).toBe("ok");

    for (const m of monitors) {
      const a = await source.radarMonitors.getMonitor(ws, m.id);
      expect(await target.radarMonitors.getMonitor(ws, m.id)).toEqual(a);
      expect(await target.radarMonitors.monitorById(m.id)).toEqual(a);
      expect(await target.radarMonitors.monitorOfSearch(ws, m.search_id)).toEqual(a);
      expect(toMonitorView((await target.radarMonitors.getMonitor(ws, m.id))!)).toEqual(toMonitorView(a!));
    }
    // Still due when it was, and not before.
    const due = async (s: Stores, now: string) =>
      (await s.radarMonitors.dueMonitors(now, 1000)).filter((m) => m.workspace_id === ws).map((m) => m.id);
    expect(await due(target, "2026-11-29T04:00:00.000Z")).toEqual([monitors[0]!.id]);
    expect(await due(target, "2026-11-29T03:59:59.999Z")).toEqual(await due(source, "2026-11-29T03:59:59.999Z"));
    expect(await due(target, "2026-11-29T03:59:59.999Z")).toEqual([]);
    const m = (await target.radarMonitors.getMonitor(ws, monitors[0]!.id))!;
    expect(await target.radarMonitors.updateMonitor({ ...m, version: m.version + 1, next_run_at: null })).toBe("ok");
  },
};
