/**
 * The text keys of radar's results and contacts' unlocks in code-unit order (`collate "C"`,
 * docs/decisions/072-radar-and-contacts-transfer.md): a store copy and a workspace export read
 * each kind in its key's order (ADR 067), a keyset page at a time, and the primary keys now serve
 * that order instead of a sort per page. Equality, all these keys' queries use, is the same under
 * either collation; only the indexes are rebuilt.
 */
export default {
  version: 35,
  name: "radar-keys-in-code-order",
  sql: /* sql */ `
alter table radar_run_results alter column provider_id type text collate "C";
alter table radar_contact_unlocks alter column entity_id type text collate "C", alter column kind type text collate "C";
`,
};
