import type { SqlDriver } from "./driver.ts";
import { type Migration, MIGRATIONS } from "./migrations/mod.ts";

/** Key of the advisory lock that serialises migrators; any constant shared by every process. */
const MIGRATION_LOCK_KEY = 7_207_450_391;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in one transaction that first
 * takes a transaction-scoped advisory lock: a second process (or a second call) waits, then finds
 * them recorded and applies nothing. A failing migration rolls back with everything before it.
 * Returns the versions it applied.
 */
export async function migrate(driver: SqlDriver, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return driver.transaction(async (tx) => {
    // A migration (or waiting for another process's) may take longer than a request's statement
    // timeout: lifted for this transaction; `exec` is not bounded by the client either.
    await tx.exec(`set local statement_timeout = 0; select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.exec(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const rows = await tx.query<{ version: number }>("select version from schema_migrations");
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("insert into schema_migrations (version, name) values ($1, $2)", [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
