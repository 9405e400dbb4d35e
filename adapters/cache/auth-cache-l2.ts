import type { KeyMatch } from "../../core/access/ports.ts";

/**
 * A cache shared by every instance, consulted on a miss of the in-process `AuthCache` (level 1)
 * before the primary store, so a cold instance does not send every key's first lookup to the
 * database. Every method fails soft: a broken or absent level 2 only costs the store round trip.
 *
 * - `get`: the cached answer for a key hash, or `undefined` (miss, expired, or cache unavailable).
 * - `set`: caches an answer from the store for at most `ttlMs` (0 or less: not cached). May decide
 *   not to cache it (e.g. its workspace was invalidated moments ago). Never throws.
 * - `invalidateWorkspace`: drops every cached answer of the workspace. Await it before the write
 *   that changed an authentication answer returns; it never throws (a failure is retried by the
 *   implementation when it can, and the TTL bounds what is left).
 */
export interface AuthCacheL2 {
  get(keyHash: string): Promise<KeyMatch | undefined>;
  set(keyHash: string, match: KeyMatch, ttlMs: number): Promise<void>;
  invalidateWorkspace(workspaceId: string): Promise<void>;
}

/** No second level (no shared cache configured). */
export const noAuthCacheL2: AuthCacheL2 = {
  get: async () => undefined,
  set: async () => {},
  invalidateWorkspace: async () => {},
};
