/**
 * What the other module folders of this adapter may use of access's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { AccessCollections } from "./collections.ts";
// The owner's key a workspace bootstrap writes (ADR 019).
export { apiKeyDoc } from "./documents.ts";
