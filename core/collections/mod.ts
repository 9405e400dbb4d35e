/**
 * Collections: configured sets of typed records (schema, stages, views, query, aggregate, history)
 * and the entities they share. Public surface of the module.
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";

// Pure rules
export * from "./archetype.ts";
export * from "./record-schema.ts";
export * from "./record-validation.ts";
export * from "./record-filter.ts";
export * from "./record-sort.ts";
export * from "./record-aggregate.ts";
export * from "./record-text.ts";
export * from "./record-diff.ts";
export * from "./open-value.ts";
export * from "./shape-inference.ts";
export * from "./record-projection.ts";
export * from "./record-query.ts";
export * from "./entity-key.ts";
export * from "./views.ts";
export * from "./collection-rules.ts";
export * from "./csv-cells.ts";
export * from "./record-import-rows.ts";

// Use cases
export * from "./collections.ts";
export * from "./records.ts";
export * from "./record-reads.ts";
export * from "./entities.ts";
export * from "./collection-criterion.ts";
export * from "./doctor.ts";
export * from "./record-import.ts";
export * from "./record-export.ts";
export * from "./transfer.ts";
