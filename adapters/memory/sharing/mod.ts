/**
 * What the other module folders of this adapter may use of sharing's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { SharingTables } from "./tables.ts";
// What deleting a topic or removing a member takes with it here (ADR 019: cascades PostgreSQL does with foreign keys).
export { dropMemberInbox, dropTopicShares } from "./cascades.ts";
