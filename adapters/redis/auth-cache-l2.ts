import type { KeyMatch } from "../../core/access/ports.ts";
import type { AuthCacheL2 } from "../cache/auth-cache-l2.ts";
import type { RedisConnection } from "./connection.ts";
import { RedisScript } from "./script.ts";

/** `wks:auth:{<keyHash>}` → JSON of the `KeyMatch`, with a PX TTL. */
export const authEntryKey = (keyHash: string) => `wks:auth:{${keyHash}}`;
/** `wks:{<workspaceId>}:authkeys` → set of the key hashes cached for the workspace. */
export const authIndexKey = (workspaceId: string) => `wks:{${workspaceId}}:authkeys`;
/** `wks:{<workspaceId>}:authinv` → present for a short while after the workspace was invalidated. */
export const authGuardKey = (workspaceId: string) => `wks:{${workspaceId}}:authinv`;

/**
 * Records a key hash in its workspace's index before its entry is written, keeps the index alive
 * at least as long as the entry will be, and tells whether the workspace was invalidated recently.
 * Both keys share the `{workspace}` tag, so this is one slot.
 */
const REGISTER = new RedisScript(`
redis.call('SADD', KEYS[1], ARGV[1])
local ttl = tonumber(ARGV[2])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return redis.call('EXISTS', KEYS[2])`);

/** Marks the workspace invalidated for a while, and takes (reads and deletes) its index. */
const TAKE = new RedisScript(`
redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
local hashes = redis.call('SMEMBERS', KEYS[1])
redis.call('DEL', KEYS[1])
return hashes`);

export interface RedisAuthCacheL2Options {
  /**
   * After an invalidation, answers for the workspace are not cached for this long: a store lookup
   * that began before the invalidating write and finishes after it must not re-insert what was
   * just dropped. Should exceed the slowest store lookup. Default 10,000 ms.
   */
  staleWriteGuardMs?: number;
  /** Bound on workspaces whose failed invalidation waits for Redis to come back. Default 10,000. */
  maxPendingInvalidations?: number;
}

function isKeyMatch(v: unknown, keyHash: string): v is KeyMatch {
  if (!v || typeof v !== "object") return false;
  const m = v as Partial<KeyMatch>;
  return (
    !!m.key && typeof m.key === "object" && m.key.key_hash === keyHash &&
    !!m.workspace && typeof m.workspace === "object" && typeof m.workspace.id === "string" &&
    m.key.workspace_id === m.workspace.id &&
    (m.member === null || (!!m.member && typeof m.member === "object" && typeof m.member.role === "string"))
  );
}

/**
 * The level-2 authentication cache in Redis.
 *
 * A write goes: index (`REGISTER`), entry (`SET`), then a look at the guard; an invalidation goes:
 * guard + index (`TAKE`, atomic), then the entries. Whatever the interleaving, either the
 * invalidation finds the hash in the index and deletes the entry, or the writer finds the guard
 * and deletes its own entry; so a store lookup racing a revocation cannot leave a stale entry
 * behind, as long as it completes within `staleWriteGuardMs`. Indexing first also means an
 * entry whose SET timed out but landed late is still found by later invalidations.
 *
 * Failure: `get` → undefined, `set` → nothing cached, `invalidateWorkspace` → remembered and
 * retried when Redis is reachable again. What stays possible: an instance that cannot reach Redis
 * while others can (a partition) revokes a key; the others may serve the L2 entry until its TTL
 * ends or the retry lands (their L1 is flushed by the invalidation bus, but L2 refills it). Keep
 * the L2 TTL no longer than the L1 TTL: it bounds that window.
 */
export function createRedisAuthCacheL2(conn: RedisConnection, opts: RedisAuthCacheL2Options = {}): AuthCacheL2 {
  const guardMs = String(Math.max(1, Math.floor(opts.staleWriteGuardMs ?? 10_000)));
  const maxPending = opts.maxPendingInvalidations ?? 10_000;
  const pending = new Set<string>();

  async function invalidate(workspaceId: string): Promise<void> {
    const hashes = (await conn.run(
      "auth L2 invalidate",
      (c) => TAKE.run(c, [authIndexKey(workspaceId), authGuardKey(workspaceId)], [guardMs]),
    )) as string[];
    // One key per command: the entries live on as many slots as there are hashes.
    await Promise.all(hashes.map((h) => conn.run("auth L2 unlink", (c) => c.unlink(authEntryKey(h)))));
  }

  const remember = (workspaceId: string) => {
    if (pending.size < maxPending) pending.add(workspaceId);
  };
  const retryPending = () => {
    const retry = [...pending];
    pending.clear();
    for (const ws of retry) invalidate(ws).catch(() => remember(ws));
  };
  conn.onReady(retryPending);

  return {
    async get(keyHash) {
      try {
        const raw = await conn.run("auth L2 get", (c) => c.get(authEntryKey(keyHash)));
        if (typeof raw !== "string") return undefined;
        const v: unknown = JSON.parse(raw);
        return isKeyMatch(v, keyHash) ? v : undefined;
      } catch {
        return undefined;
      }
    },

    async set(keyHash, match, ttlMs) {
      const ttl = Math.floor(ttlMs);
      if (!(ttl > 0) || match.key.key_hash !== keyHash) return;
      const entry = authEntryKey(keyHash);
      const index = [authIndexKey(match.workspace.id), authGuardKey(match.workspace.id)];
      const unlink = () => conn.run("auth L2 unlink", (c) => c.unlink(entry)).then(() => {}, () => {});
      try {
        // invalidated a moment ago: the answer may predate it, do not cache
        if ((await conn.run("auth L2 register", (c) => REGISTER.run(c, index, [keyHash, String(ttl)]))) !== 0) return;
      } catch {
        return;
      }
      try {
        await conn.run("auth L2 set", (c) => c.set(entry, JSON.stringify(match), { expiration: { type: "PX", value: ttl } }));
      } catch {
        // A SET that timed out may still land: an UNLINK behind it on the same connection undoes it.
        return unlink();
      }
      const guarded = await conn.run("auth L2 guard", (c) => c.exists(index[1]!)).catch(() => 1);
      if (guarded !== 0) await unlink();
    },

    async invalidateWorkspace(workspaceId) {
      try {
        await invalidate(workspaceId);
        pending.delete(workspaceId);
        if (pending.size > 0) retryPending();
      } catch {
        remember(workspaceId);
      }
    },
  };
}
