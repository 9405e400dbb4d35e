/**
 * What the other module folders of this adapter may use of workspaces's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { WorkspaceTables } from "./tables.ts";
export { memoryKind } from "./transfer.ts";
