/**
 * Radar: priced searches paid in credits. What its runs charge, criteria (topics holding a
 * `radar-criterion` block), the prospects a directory answers and the `ProspectDirectory` port,
 * searches, runs (quote, hold, results, trace), monitors and the monitor webhook. Contact paths and
 * enrichment are contacts' (core/contacts/). Public surface of the module.
 */
export * from "./prices.ts";
export * from "./dto.ts";
export * from "./model.ts";
export * from "./criterion-filter.ts";
export * from "./prospect.ts";
export * from "./ports.ts";
export * from "./run-rules.ts";
export * from "./result-fields.ts";
export * from "./jobs.ts";
export * from "./policy.ts";
export {
  CRITERION_TAG,
  type CriterionBlock,
  criterionBody,
  filterProblems,
  parseCriterion,
  type ParsedCriterion,
  renderCriterion,
} from "./criterion-block.ts";
export { getCriterion, reviseCriterion } from "./criterion-topics.ts";
export { openSearch } from "./searches.ts";
export { dispatch, findRun, getRun, getTrace, priceRun, reconcileRun, startRun } from "./runs.ts";
export { DEFAULT_RUN_LEASE_MS, executeRun } from "./run-execution.ts";
export { executeMonitor, getRunMonitor, pauseMonitor, radarSweep, resumeMonitor } from "./monitors.ts";
export { followTrace, isTerminalStep } from "./trace.ts";
export { agentChange } from "./record-change.ts";
export { MONITOR_WEBHOOK_SOURCE, MonitorWebhookResult, receiveMonitorWebhook } from "./monitor-webhook.ts";
export * from "./transfer.ts";
