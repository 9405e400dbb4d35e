import * as bunTest from "bun:test";
import { migrate, openPgliteStores, pgliteDriver } from "../../adapters/postgres/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { runStoreContracts, type StoreSuite, storeSuiteIds } from "./kit/mod.ts";

// Opened at load, not in the suites' hooks: PGlite's start-up (seconds under load, with its
// btree_gin extension) can outlast a hook's timeout. One store per suite, each closed by its suite;
// opened one after the other, which on two cores is faster than all at once.
const stores = new Map<StoreSuite, Stores>();
for (const suite of storeSuiteIds) stores.set(suite, await openPgliteStores());
// The transfer suite copies one store into another: its second call gets a fresh store.
const transferTarget = await openPgliteStores();
let transferOpened = false;

runStoreContracts("pglite", async (suite) => {
  if (suite !== "transfer") return stores.get(suite)!;
  if (transferOpened) return transferTarget;
  transferOpened = true;
  return stores.get(suite)!;
}, { api: bunTest });

// Deleting a workspace is one statement whose foreign keys take every module's rows with it
// (adapters/postgres/bundle.ts): a table of tenant data without that cascade would keep them. Each
// table cascades from workspaces or from a table that is itself checked here (repo_indexes: repos),
// or is kept by a delete trigger on one (topic_head_terms: ADR 036; its workspace deletion is
// tested in topic-search-sql.test.ts).
bunTest.test("pglite: every table with a workspace_id goes with its workspace (a cascading foreign key)", async () => {
  const driver = await pgliteDriver();
  try {
    await migrate(driver);
    const orphans = await driver.query<{ table_name: string }>(
      `select c.table_name from information_schema.columns c
       where c.table_schema = 'public' and c.column_name = 'workspace_id'
         and not exists (
           select 1 from pg_constraint k
           where k.conrelid = c.table_name::regclass and k.contype = 'f'
             and k.confdeltype = 'c'
             and exists (
               select 1 from pg_class p where p.oid = k.confrelid
                 and (p.relname = 'workspaces' or exists (
                   select 1 from information_schema.columns pc
                   where pc.table_schema = 'public' and pc.table_name = p.relname and pc.column_name = 'workspace_id'))))
       order by 1`,
    );
    // Tables a trigger on a checked table keeps, deleting their rows with it: a cascading key
    // would need an index of its own for the cascade's delete (870k rows at 100k topics).
    const kept = await driver.query<{ table_name: string }>(
      `select t.table_name from (values ('topic_head_terms', 'topics', 'topic_head_terms_sync')) as t (table_name, parent, trigger)
       where exists (select 1 from pg_trigger g where g.tgrelid = t.parent::regclass and g.tgname = t.trigger
                     and (g.tgtype & 8) <> 0)`,
    );
    bunTest.expect(kept.map((r) => r.table_name)).toEqual(["topic_head_terms"]);
    bunTest.expect(orphans.filter((o) => !kept.some((k) => k.table_name === o.table_name))).toEqual([]);
  } finally {
    await driver.close();
  }
});
