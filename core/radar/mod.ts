/**
 * Radar: priced searches paid in credits. So far its price table, criteria (topics holding a
 * `radar-criterion` block), the prospects a directory answers and the `ProspectDirectory` port;
 * runs, enrichment and unlocks come next. Public surface of the module.
 */
export * from "./prices.ts";
export * from "./dto.ts";
export * from "./criterion-filter.ts";
export * from "./prospect.ts";
export * from "./ports.ts";
export {
  CRITERION_TAG,
  type CriterionBlock,
  criterionBody,
  filterProblems,
  parseCriterion,
  type ParsedCriterion,
  renderCriterion,
} from "./criterion.ts";
export { getCriterion, reviseCriterion } from "./criteria.ts";
