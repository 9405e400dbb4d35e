import type { StoreBundle } from "../store-bundle.ts";

/**
 * A module's part of the PostgreSQL adapter: its stores. Its purge is the schema's: each tenant
 * table references `workspaces (id) on delete cascade` (a rule for every migration), so deleting a
 * workspace is one statement that takes every module's rows with it, atomically. Per-module
 * deletes inside that transaction would take row locks before the workspace row's and could
 * deadlock with a writer holding its key-share lock on the workspace (ADR 019).
 */
export type SqlBundle<S> = StoreBundle<S>;
