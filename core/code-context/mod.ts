/**
 * Code context: linked repos' file indexes, topic anchors checked and matched against them,
 * drift, retrieval for coding agents, the audit, and the code-host push webhook. Public surface
 * of the module. It reads topics and repos; they reach it only through the ports it fills
 * (`codeContextHooks`).
 */
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./hooks.ts";

// Pure rules
export * from "./anchor-base.ts";
export * from "./anchor-validation.ts";

// Use cases and jobs
export { MAX_INDEXED_FILES, refreshRepoIndex, requestRepoIndex, SYNC_INDEX_TIMEOUT_MS } from "./repo-index.ts";
export * from "./repo-index-job.ts";
export * from "./repo-refresh.ts";
export { FilePathSchema, MatchedTopic, matchFiles, MatchFilesDto, MatchFilesResult, MAX_MATCH_PATHS } from "./match-files.ts";
export { markDrift, MarkDriftDto, MarkDriftResult, MAX_DRIFT_FILES, MAX_DRIFT_PATHS } from "./mark-drift.ts";
export {
  DEFAULT_BUDGET_TOKENS,
  DELIVERY_WINDOW_MS,
  MAX_BUDGET_TOKENS,
  retrieve,
  RetrieveDto,
  RetrievedTopic,
  RetrieveResult,
} from "./retrieve.ts";
export * from "./audit.ts";
export * from "./code-host-webhook.ts";
