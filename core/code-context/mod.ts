/**
 * Code context: linked repos' file indexes, topic anchors checked and matched against them,
 * drift, retrieval for coding agents, the audit, and the code-host push webhook. Public surface
 * of the module. It reads topics and repos; they reach it only through the ports it fills
 * (`codeContextHooks`).
 */
export * from "./ports.ts";
export * from "./dto.ts";
export * from "./policy.ts";
export * from "./hooks.ts";

// Pure rules
export * from "./anchor-base.ts";
export * from "./anchor-validation.ts";

// Use cases and jobs
export { MAX_INDEXED_FILES, refreshRepoIndex, requestRepoIndex, SYNC_INDEX_TIMEOUT_MS } from "./repo-index.ts";
export * from "./repo-index-job.ts";
export * from "./repo-refresh.ts";
export { matchFiles } from "./match-files.ts";
export { markDrift, MAX_DRIFT_FILES } from "./mark-drift.ts";
export { DELIVERY_WINDOW_MS, retrieve } from "./retrieve.ts";
export * from "./audit.ts";
export * from "./code-host-webhook.ts";
export * from "./transfer.ts";
