import type { CoreDeps } from "../kernel/deps.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { WebhookStores } from "../webhooks/mod.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { SupportConversation, SupportNotification } from "./model.ts";

export type SupportRecordOutcome =
  | { outcome: "recorded"; conversation: SupportConversation }
  | { outcome: "duplicate" }
  /** The workspace is gone (deleted meanwhile): nothing recorded. */
  | { outcome: "no_workspace" };

/**
 * A workspace's support log: its support-desk conversations, each as the notifications received
 * about it left it (docs/decisions/035-support-webhook.md).
 */
export interface SupportLogStore {
  /**
   * Applies a notification to its conversation (`applyNotification`), creating it on the first,
   * and records the notification's id in the same write: a notification already recorded for the
   * workspace is "duplicate", nothing changed. Atomic per conversation: of concurrent
   * notifications none is lost (20 at once leave `events` 20), on every backend.
   */
  record(workspaceId: string, n: SupportNotification, receivedAt: string): Promise<SupportRecordOutcome>;
  /** One conversation; null when none. */
  get(workspaceId: string, conversationId: string): Promise<SupportConversation | null>;
  /** The workspace's conversations, newest first (`updated_at`, then `id`, both descending), and how many there are. */
  list(workspaceId: string, page: OffsetPage): Promise<{ items: SupportConversation[]; total: number }>;
}

/** Support's stores, one bundle per adapter (adapters/<adapter>/support-desk/). */
export interface SupportStores {
  supportLog: SupportLogStore;
}

/** What support's use cases are given: its own store, the workspaces it finds, the deliveries it claims (ADR 019). */
export type SupportDeps = CoreDeps<SupportStores & WorkspaceStores & WebhookStores>;
