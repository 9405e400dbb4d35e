import type { KeyMatch } from "../../core/access/ports.ts";

export interface AuthCacheOptions {
  /** Upper bound on staleness should an invalidation message be lost. */
  ttlMs: number;
  /** Bound on memory: the oldest entry is evicted past it. */
  maxEntries: number;
}

export const DEFAULT_AUTH_CACHE: AuthCacheOptions = { ttlMs: 30_000, maxEntries: 10_000 };

interface Entry {
  match: KeyMatch;
  expires: number;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Key hash → what authentication needs, in process memory. An epoch counter guards the classic
 * race: a lookup that began before an invalidation must not store its (possibly stale) answer.
 */
export class AuthCache {
  private entries = new Map<string, Entry>();
  private epoch = 0;

  constructor(private opts: AuthCacheOptions = DEFAULT_AUTH_CACHE) {}

  get(keyHash: string, now: number): KeyMatch | undefined {
    const e = this.entries.get(keyHash);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return e.match;
  }

  /** The epoch to pass back to `set`, read before the store lookup starts. */
  begin(): number {
    return this.epoch;
  }

  set(keyHash: string, match: KeyMatch, startedAt: number, now: number): void {
    if (startedAt !== this.epoch) return;
    if (this.entries.size >= this.opts.maxEntries && !this.entries.has(keyHash)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { match: deepFreeze(match), expires: now + this.opts.ttlMs });
  }

  /** Keeps a cached key's last_used_at in step with the store, so it is not re-written every request. */
  touched(keyHash: string, at: string): void {
    const e = this.entries.get(keyHash);
    if (!e) return;
    e.match = deepFreeze({ ...e.match, key: { ...e.match.key, last_used_at: at } });
  }

  invalidate(workspaceId: string | "*"): void {
    this.epoch++;
    if (workspaceId === "*") {
      this.entries.clear();
      return;
    }
    for (const [hash, e] of this.entries) if (e.match.workspace.id === workspaceId) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}
