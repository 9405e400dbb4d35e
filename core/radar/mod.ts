/** Radar: priced searches paid in credits. So far its price table (runs, enrichment and unlocks come next). Public surface of the module. */
export * from "./prices.ts";
export * from "./dto.ts";
