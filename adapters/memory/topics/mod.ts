/**
 * What the other module folders of this adapter may use of topics's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { TopicTables } from "./tables.ts";
export { asTransferDoc, memoryTenantKind } from "./transfer-kind.ts";
