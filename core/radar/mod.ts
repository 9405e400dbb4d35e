/**
 * Radar: priced searches paid in credits. So far its price table, the prospect filters and the
 * `ProspectDirectory` port (runs, enrichment and unlocks come next). Public surface of the module.
 */
export * from "./prices.ts";
export * from "./dto.ts";
export * from "./prospect.ts";
export * from "./ports.ts";
