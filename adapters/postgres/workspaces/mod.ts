/**
 * What the other module folders of this adapter may use of workspaces's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export { memberColumns, toMember, toWorkspace, workspaceColumns } from "./rows.ts";
export { type SqlColumn, sqlKind, type SqlKindSpec } from "./transfer.ts";
