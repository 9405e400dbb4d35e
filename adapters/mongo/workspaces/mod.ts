/**
 * What the other module folders of this adapter may use of workspaces's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { WorkspaceCollections } from "./collections.ts";
export { toMember, toWorkspace } from "./documents.ts";
export { isComplete, latestRoster } from "./roster.ts";
export { mongoKind, type MongoKindSpec } from "./transfer.ts";
