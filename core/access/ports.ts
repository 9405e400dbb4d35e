import type { Listed, Member, Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { ApiKeyRecord } from "./model.ts";

export interface KeyMatch {
  key: ApiKeyRecord;
  workspace: Workspace;
  /** The membership of the key's identity in the key's workspace; null for a service key or a former member. */
  member: Member | null;
}

export interface ApiKeyStore {
  insert(key: ApiKeyRecord): Promise<void>;
  /** One indexed lookup by hash that returns everything authentication needs. */
  findByHash(keyHash: string): Promise<KeyMatch | null>;
  /**
   * Newest first. `identityId` narrows to the keys acting as that identity (`null`: to faceless
   * service keys; omitted: no narrowing); `keyId` narrows to one key.
   */
  list(workspaceId: string, page: OffsetPage, identityId?: string | null, keyId?: string): Promise<Listed<ApiKeyRecord>>;
  /** Deletes the key; it stops authenticating at once. */
  revoke(workspaceId: string, keyId: string): Promise<boolean>;
  /** Sets last_used_at. Adapters may skip the write when the stored value is already newer. */
  touch(workspaceId: string, keyId: string, at: string): Promise<void>;
}

/** Seals secrets at rest (API keys): `createSecretBox` (secret-box.ts) is the Web Crypto one. Every use case's deps hold one (kernel). */
export type { SecretBox } from "../kernel/deps.ts";

/** Fixed-window rate limiting (rate-limit.ts decides; the counter is in-process or shared through Redis). */
export interface RateRule {
  limit: number;
  windowMs: number;
}

export interface WindowCount {
  /** hits in the current window, this one included */
  count: number;
  /** ms until the current window ends */
  resetMs: number;
}

export interface RateCounter {
  /**
   * Counts one hit for `key` in a window of `windowMs` starting at its first hit. Atomic. An
   * in-process counter may answer synchronously (it runs on every request; a promise costs).
   */
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  close(): Promise<void>;
}

/** Access's stores, one bundle per adapter (adapters/<adapter>/access/). */
export interface AccessStores {
  apiKeys: ApiKeyStore;
}

/** What Access's use cases are given: its own stores and those of other modules it reads (ADR 019). */
export type AccessDeps = CoreDeps<AccessStores & WorkspaceStores>;
