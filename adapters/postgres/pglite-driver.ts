import { mkdir } from "node:fs/promises";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import type { SqlDriver } from "./driver.ts";

/**
 * A driver over PGlite, Postgres compiled to WebAssembly in this process: `dataDir` undefined
 * keeps the database in memory, a path persists it there.
 *
 * PGlite is one connection. Its API queues work: a plain `query` waits for any running
 * transaction to finish (both take the same mutex), so statements of concurrent calls never run
 * inside another call's transaction. Inside a transaction only the transaction's own handle may
 * be used; a call on the outer handle would wait for the transaction that waits for it.
 */
export async function pgliteDriver(dataDir?: string): Promise<SqlDriver> {
  // PGlite creates the last directory of a path but not its parents; `memory://`, `idb://` and
  // other scheme-prefixed locations are its own business.
  if (dataDir && !/^[a-z]+:\/\//.test(dataDir)) await mkdir(dataDir, { recursive: true });
  // btree_gin: the topic indexes are GIN over (workspace_id, ...); see migrations/002-topics.ts.
  const db = await PGlite.create({ dataDir, extensions: { btree_gin } });
  return wrap(db, db);
}

function wrap(client: PGlite | Transaction, root: PGlite): SqlDriver {
  const driver: SqlDriver = {
    kind: "pglite",
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      const result = await client.query<T>(text, params);
      return result.rows;
    },
    async exec(text: string): Promise<void> {
      await client.exec(text);
    },
    async transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
      if (client !== root) return fn(driver);
      return root.transaction((tx) => fn(wrap(tx, root)));
    },
    async close(): Promise<void> {
      if (client === root && !root.closed) await root.close();
    },
  };
  return driver;
}
