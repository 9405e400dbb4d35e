/**
 * A record insert checks one foreign key, not two. `collection_records` referenced both
 * `workspaces (id)` and `collections (workspace_id, id)`, each `on delete cascade`; the second
 * implies the first (a collection belongs to its workspace and goes with it, taking its records),
 * so the first only cost every inserted row a second check: measured, 2.3 ms of a 250-row import
 * statement's 27 ms (issue #25's records import). The collection's key still share-locks the
 * collection row on every insert, which the rollup triggers rely on (migration 023).
 */
export default {
  version: 39,
  name: "record-insert-checks",
  sql: /* sql */ `
alter table collection_records drop constraint collection_records_workspace_id_fkey;
`,
};
