/**
 * What the other module folders of this adapter may use of topics's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export type { TopicCollections } from "./collections.ts";
export { TOPIC_FIELDS_ONLY, toTopic } from "./documents.ts";
export { mongoTenantKind } from "./transfer-kind.ts";
