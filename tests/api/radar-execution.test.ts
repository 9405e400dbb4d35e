import { beforeEach, describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import type { Principal } from "../../core/access/mod.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import { executeRun, openSearch, priceRun, type ProspectDirectory, startRun } from "../../core/radar/mod.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { TEST_SECRET } from "../support/test-app.ts";

/**
 * Run execution under faults, in core: a worker that dies mid-run, and workers racing on one run.
 * The directory is the real sample one; the fault is a wrapper that stops the worker after a
 * number of pages, as a killed process would.
 */

class WorkerDied extends Error {}

/** The sample directory, except that the worker "dies" when asked for page `dieAt` (1-based). */
function dyingAfter(dieAt: number): ProspectDirectory & { pages: number } {
  const inner = createSampleDirectory();
  const d = {
    name: inner.name,
    pages: 0,
    count: inner.count.bind(inner),
    enrich: inner.enrich.bind(inner),
    contacts: inner.contacts.bind(inner),
    async search(q: Parameters<ProspectDirectory["search"]>[0], page: Parameters<ProspectDirectory["search"]>[1]) {
      d.pages++;
      if (d.pages === dieAt) throw new WorkerDied("killed");
      return inner.search(q, page);
    },
  };
  return d;
}

describe("radar run execution under faults (memory)", () => {
  const clock = fixedClock(new Date("2026-11-24T12:00:00Z"));
  let deps: ComposedDeps;
  let ws: Workspace;
  let owner: Principal;

  beforeEach(async () => {
    const stores = createMemoryStores();
    deps = { stores, clock, secretBox: await createSecretBox(TEST_SECRET), prospects: createSampleDirectory(), radarRunLeaseMs: 10_000 };
    const ownerId = crypto.randomUUID();
    const now = clock.now().toISOString();
    ws = {
      id: crypto.randomUUID(),
      slug: "faults",
      name: "faults",
      plan: "free",
      settings: { review_interval_days: 90 },
      created_at: now,
      updated_at: now,
    } as Workspace;
    owner = {
      kind: "identity",
      scopes: API_KEY_SCOPES,
      identityId: ownerId,
      memberId: crypto.randomUUID(),
      workspaceId: ws.id,
      role: "owner",
      credentialId: "k",
      via: "api_key",
    };
    await stores.creditLedger.append({
      workspace_id: ws.id,
      id: crypto.randomUUID(),
      at: now,
      op: { type: "grant", amount: 10_000 },
      reason: null,
    });
  });

  /** A started person run over all German people (more than two pages), not yet executed. */
  async function startedRun(maxResults: number) {
    const opened = await openSearch({ ...deps, jobs: { enqueue: async () => {} } }, owner, ws, {
      criterion: { title: "German people", kind: "person", filter: { countries: ["DE"] } },
      max_results: maxResults,
    });
    await priceRun(deps, owner, ws, opened.run.id, {});
    // A queue that takes the job and never runs it: the tests play the workers.
    const run = await startRun({ ...deps, jobs: { enqueue: async () => {} } }, owner, ws, opened.run.id);
    return { run, collectionId: opened.search.collection_id };
  }

  async function records(collectionId: string) {
    const all = [];
    for (let after: string | null = null;;) {
      const page = await deps.stores.records.query(ws.id, collectionId, {
        filter: null,
        sort: { operand: null, dir: "asc" },
        after: after === null ? null : { id: after },
        limit: 200,
      });
      all.push(...page.items);
      if (!page.has_more) return all;
      after = page.items.at(-1)!.id;
    }
  }

  test("a worker killed mid-run: after its lease another finishes it, every record written once and charged once", async () => {
    const { run, collectionId } = await startedRun(250);
    expect(run.state).toBe("queued");
    const quote = run.quote!;
    expect(quote.estimated_results).toBe(250);

    const dying = dyingAfter(3);
    await expect(executeRun({ ...deps, prospects: dying }, ws.id, run.id)).rejects.toThrow("killed");
    const halfway = (await deps.stores.radarRuns.getRun(ws.id, run.id))!;
    expect(halfway.state).toBe("running");
    expect(halfway.read).toBe(200);

    // Another worker before the lease ends leaves the run alone.
    await executeRun(deps, ws.id, run.id);
    expect((await deps.stores.radarRuns.getRun(ws.id, run.id))!.read).toBe(200);

    clock.advance(10_001);
    await executeRun(deps, ws.id, run.id);
    const done = (await deps.stores.radarRuns.getRun(ws.id, run.id))!;
    expect(done.state).toBe("completed");
    expect(done.attempt).toBe(2);
    expect(done.results).toEqual({ matched: 250, created: 250, updated: 0, unchanged: 0 });
    expect(done.charged_credits).toBe(250 * quote.unit_credits);
    const recs = await records(collectionId);
    expect(recs.length).toBe(250);
    expect(new Set(recs.map((r) => r.entity_id)).size).toBe(250);
    const entries = await deps.stores.creditLedger.history(ws.id, { run_id: run.id }, { limit: 10 });
    expect(entries.map((e) => e.type)).toEqual(["capture", "hold"]);
    expect(entries[0]!.amount).toBe(-done.charged_credits);
    const steps = await deps.stores.radarRuns.steps(ws.id, run.id, 0, 100);
    expect(steps.map((s) => s.type)).toContain("run.resumed");
    expect(steps.at(-1)!.type).toBe("run.completed");
  });

  test("workers racing on one run: one takes it, the result is the same as one worker's", async () => {
    const { run, collectionId } = await startedRun(120);
    await Promise.all([executeRun(deps, ws.id, run.id), executeRun(deps, ws.id, run.id), executeRun(deps, ws.id, run.id)]);
    const done = (await deps.stores.radarRuns.getRun(ws.id, run.id))!;
    expect(done.state).toBe("completed");
    expect(done.attempt).toBe(1);
    expect(done.results.created).toBe(120);
    expect((await records(collectionId)).length).toBe(120);
    // Settling again (a duplicate job after the end) charges nothing more.
    await executeRun(deps, ws.id, run.id);
    const captures = await deps.stores.creditLedger.history(ws.id, { run_id: run.id, type: "capture" }, { limit: 10 });
    expect(captures.length).toBe(1);
    expect((await deps.stores.creditLedger.totals(ws.id)).balance).toBe(10_000 - done.charged_credits);
  });
});
