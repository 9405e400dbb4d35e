import { beforeEach, describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import type { Principal } from "../../core/access/mod.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import { executeMonitor, getRunMonitor, openSearch, priceRun, startRun } from "../../core/radar/mod.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { TEST_SECRET } from "../support/test-app.ts";

/**
 * Monitors over time (ADR 026), in core with a clock the test moves: the first run
 * completes, the monitor is due an interval later, its runs are priced within what is left of the
 * month's budget and charge new and changed results only, and it pauses itself when the ledger
 * refuses the hold. Runs execute inline (no queue), as an embedding app without one sees them.
 */
describe("radar monitors over time (memory)", () => {
  const day = 86_400_000;
  let clock: ReturnType<typeof fixedClock>;
  let deps: ComposedDeps;
  let ws: Workspace;
  let owner: Principal;

  beforeEach(async () => {
    clock = fixedClock(new Date("2026-11-02T09:00:00Z"));
    deps = { stores: createMemoryStores(), clock, secretBox: await createSecretBox(TEST_SECRET), prospects: createSampleDirectory() };
    const at = clock.now().toISOString();
    ws = {
      id: crypto.randomUUID(),
      slug: "monitors",
      name: "monitors",
      plan: "free",
      settings: { review_interval_days: 90 },
      created_at: at,
      updated_at: at,
    } as Workspace;
    owner = {
      kind: "identity",
      scopes: API_KEY_SCOPES,
      identityId: crypto.randomUUID(),
      memberId: crypto.randomUUID(),
      workspaceId: ws.id,
      role: "owner",
      credentialId: "k",
      via: "api_key",
    };
  });

  const grant = (amount: number) =>
    deps.stores.creditLedger.append({
      workspace_id: ws.id,
      id: crypto.randomUUID(),
      at: clock.now().toISOString(),
      op: { type: "grant", amount },
    });
  const balance = async () => (await deps.stores.creditLedger.totals(ws.id)).balance;

  async function monitored(budget: number, maxResults = 20) {
    const opened = await openSearch(deps, owner, ws, {
      criterion: { title: "Logistics in Spain", kind: "company", filter: { industries: ["logistics"], countries: ["ES"] } },
      max_results: maxResults,
      monitor: { interval: "daily", budget_credits: budget },
    });
    await priceRun(deps, owner, ws, opened.run.id, {});
    await startRun(deps, owner, ws, opened.run.id);
    return opened;
  }

  test("the first run completes, then the monitor is due a day later; its run finds nothing new and charges nothing", async () => {
    await grant(100);
    const opened = await monitored(50);
    const first = (await deps.stores.radarRuns.getRun(ws.id, opened.run.id))!;
    expect(first.state).toBe("completed");
    const afterFirst = await balance();
    const m = await getRunMonitor(deps, ws, opened.run.id);
    expect(m).toMatchObject({ state: "active", spent_credits: 0, next_run_at: new Date(clock.now().getTime() + day).toISOString() });

    // Not yet due: nothing happens.
    await executeMonitor(deps, ws.id, m.id);
    expect((await deps.stores.radarMonitors.monitorById(m.id))!.last_run_id).toBe(first.id);

    clock.advance(day);
    await executeMonitor(deps, ws.id, m.id);
    const stored = (await deps.stores.radarMonitors.monitorById(m.id))!;
    const second = (await deps.stores.radarRuns.getRun(ws.id, stored.last_run_id!))!;
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ monitor_id: m.id, state: "completed", charged_credits: 0 });
    expect(second.results).toMatchObject({ created: 0, updated: 0, unchanged: first.results.created });
    expect(second.quote!.max_credits).toBeLessThanOrEqual(50);
    expect(await balance()).toBe(afterFirst);
    expect(stored).toMatchObject({ spent_credits: 0, next_run_at: new Date(clock.now().getTime() + day).toISOString() });

    // A duplicate job for the same due time starts no second run.
    const runs = stored.last_run_id;
    await executeMonitor(deps, ws.id, m.id);
    expect((await deps.stores.radarMonitors.monitorById(m.id))!.last_run_id).toBe(runs);
  });

  test("a monitor's run is priced within the month's budget left; the budget starts again next month", async () => {
    await grant(1_000);
    const opened = await monitored(3, 5);
    const m = await getRunMonitor(deps, ws, opened.run.id);
    // Make the directory's answers new again: drop the first run's records.
    const coll = opened.search.collection_id;
    for (
      const r
        of (await deps.stores.records.query(ws.id, coll, { filter: null, sort: { operand: null, dir: "asc" }, after: null, limit: 200 }))
          .items
    ) {
      await deps.stores.records.delete(ws.id, coll, r.id, null);
    }
    clock.advance(day);
    await executeMonitor(deps, ws.id, m.id);
    let stored = (await deps.stores.radarMonitors.monitorById(m.id))!;
    const run = (await deps.stores.radarRuns.getRun(ws.id, stored.last_run_id!))!;
    expect(run.quote).toMatchObject({ estimated_results: 3, max_credits: 3 });
    expect(run.charged_credits).toBe(3);
    expect(stored.spent_credits).toBe(3);

    // The budget is spent: the next due time starts no run, the one after next month does.
    clock.advance(day);
    await executeMonitor(deps, ws.id, m.id);
    stored = (await deps.stores.radarMonitors.monitorById(m.id))!;
    expect(stored.last_run_id).toBe(run.id);
    expect(Date.parse(stored.next_run_at!)).toBe(clock.now().getTime() + day);
    clock.advance(30 * day);
    await executeMonitor(deps, ws.id, m.id);
    stored = (await deps.stores.radarMonitors.monitorById(m.id))!;
    expect(stored.last_run_id).not.toBe(run.id);
    expect(stored.period_start).toBe("2026-12-01T00:00:00.000Z");
  });

  test("short of credits for the hold, the monitor pauses itself (insufficient_credits) and starts nothing", async () => {
    await grant(20);
    const opened = await monitored(50);
    const m = await getRunMonitor(deps, ws, opened.run.id);
    const coll = opened.search.collection_id;
    for (
      const r
        of (await deps.stores.records.query(ws.id, coll, { filter: null, sort: { operand: null, dir: "asc" }, after: null, limit: 200 }))
          .items
    ) {
      await deps.stores.records.delete(ws.id, coll, r.id, null);
    }
    // Spend what is left.
    const left = await balance();
    if (left > 0) {
      await deps.stores.creditLedger.append({
        workspace_id: ws.id,
        id: crypto.randomUUID(),
        at: clock.now().toISOString(),
        op: { type: "debit", amount: left },
      });
    }
    clock.advance(day);
    await executeMonitor(deps, ws.id, m.id);
    const stored = (await deps.stores.radarMonitors.monitorById(m.id))!;
    expect(stored).toMatchObject({ state: "paused", paused_reason: "insufficient_credits", next_run_at: null, last_run_id: opened.run.id });
    expect(await deps.stores.radarRuns.staleRuns(clock.now().toISOString(), 10)).toEqual([]);
    expect((await deps.stores.creditLedger.totals(ws.id)).held).toBe(0);
  });
});
