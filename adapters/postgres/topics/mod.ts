/**
 * What the other module folders of this adapter may use of topics's (ADR 061): the shared state and
 * mappers their stores read, nothing else. The stores themselves are composed in ../mod.ts.
 */
export { topicColumns, toTopic } from "./topic-rows.ts";
export { TOPIC_VERSION } from "./topic-versions.ts";
export { RECORDS, sqlTenantKind, textArray } from "./transfer-kind.ts";
