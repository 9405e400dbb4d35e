import { expect, test } from "bun:test";
import { createSqlStores, migrate, MIGRATIONS, pgliteDriver } from "../../adapters/postgres/mod.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { sweepUnlockHolds } from "../../core/contacts/mod.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { bootstrapped } from "./fixtures.ts";

/**
 * Migration 031 (docs/decisions/055-unlock-hold-sweep.md) on a database with history: the unlock
 * holds a dead request left unresolved before it (a crash of PostgreSQL left some) get a lease that has ended, with the keys their token claimed, and the first sweep
 * resolves them. Resolved holds, and holds of runs, get none.
 */
test("migration 031: unresolved unlock holds left before it get an ended lease, and the first sweep releases them", async () => {
  const driver = await pgliteDriver();
  try {
    await migrate(driver, MIGRATIONS.filter((m) => m.version < 31));
    const s = createSqlStores(driver);
    const ws = (await bootstrapped(s)).workspace.id;
    const append = (op: Parameters<typeof s.creditLedger.append>[0]["op"], o: { id?: string; reason?: string; run_id?: string } = {}) =>
      s.creditLedger.append({ workspace_id: ws, id: o.id ?? uuidv7(), at: "2026-11-01T10:00:00.000Z", op, ...o });
    await append({ type: "grant", amount: 100 });
    // A dead unlock: its hold and two pending claims, never finished.
    const dead = uuidv7();
    await append({ type: "hold", amount: 12 }, { id: dead, reason: "contact unlock" });
    const entity = uuidv7();
    for (const kind of ["email", "phone"]) {
      await driver.query(
        `insert into radar_contact_unlocks (workspace_id, entity_id, kind, state, value, credits, token, claimed_at, settled_at)
         values ($1, $2, $3, 'pending', null, 0, $4, '2026-11-01T10:00:00Z', null)`,
        [ws, entity, kind, dead],
      );
    }
    // A finished unlock, and a run's hold (its run resolves it): no lease for either.
    const finished = uuidv7();
    await append({ type: "hold", amount: 4 }, { id: finished, reason: "contact unlock" });
    await append({ type: "resolve", hold_id: finished, capture: 4 }, { reason: "contact unlock" });
    await append({ type: "hold", amount: 30 }, { reason: "radar run", run_id: uuidv7() });
    expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 96, held: 42 });

    expect(await migrate(driver, MIGRATIONS.filter((m) => m.version <= 31))).toEqual([31]);
    await migrate(driver);
    const leases = await driver.query<Record<string, unknown>>(
      `select workspace_id, token, lease_until, entity_ids, kinds from radar_unlock_leases`,
    );
    expect(leases.map((l): Record<string, unknown> => ({ ...l, lease_until: new Date(l.lease_until as string).toISOString() }))).toEqual([
      { workspace_id: ws, token: dead, lease_until: "2026-11-01T10:01:00.000Z", entity_ids: [entity, entity], kinds: ["email", "phone"] },
    ]);

    const swept = await sweepUnlockHolds({ stores: s, clock: systemClock } as unknown as ComposedDeps);
    expect(swept).toEqual({ resolved: 1, released: 12, captured: 0 });
    expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 96, held: 30 });
    expect(await s.contactUnlocks.unlocksOf(ws, [entity])).toEqual([]);
    expect(await sweepUnlockHolds({ stores: s, clock: systemClock } as unknown as ComposedDeps)).toEqual({
      resolved: 0,
      released: 0,
      captured: 0,
    });
  } finally {
    await driver.close();
  }
});
