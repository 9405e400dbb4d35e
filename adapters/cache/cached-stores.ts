import type { Stores } from "../../core/stores.ts";
import { AuthCache, type AuthCacheOptions, DEFAULT_AUTH_CACHE } from "./auth-cache.ts";
import { type AuthCacheL2, noAuthCacheL2 } from "./auth-cache-l2.ts";
import type { InvalidationBus } from "./invalidation-bus.ts";

/**
 * Wraps any adapter's stores with the authentication cache: level 1 in process memory, level 2
 * (optional) shared by every instance, then the store. Every write that can change what a key
 * authenticates as (revoke, role change, member add/removal, workspace update/delete) invalidates
 * level 1, then level 2, before it returns, then tells the other instances, in that order: a peer
 * that flushed its level 1 must not refill it from a level 2 still holding the old answer.
 */
export function withAuthCache(
  inner: Stores,
  bus: InvalidationBus,
  opts: AuthCacheOptions = DEFAULT_AUTH_CACHE,
  l2: AuthCacheL2 = noAuthCacheL2,
  now: () => number = Date.now,
): Stores & { authCache: AuthCache } {
  const cache = new AuthCache(opts);
  bus.subscribe((workspaceId) => cache.invalidate(workspaceId));
  const changed = async (workspaceId: string) => {
    cache.invalidate(workspaceId);
    await l2.invalidateWorkspace(workspaceId);
    await bus.publish(workspaceId).catch(() => {});
  };
  const { apiKeys, members, workspaces } = inner;
  const keyHashById = new Map<string, string>();

  return {
    ...inner,
    authCache: cache,
    apiKeys: {
      insert: (key) => apiKeys.insert(key),
      list: (...args) => apiKeys.list(...args),
      async findByHash(keyHash) {
        const hit = cache.get(keyHash, now());
        if (hit) return hit;
        const startedAt = cache.begin();
        const shared = await l2.get(keyHash);
        const match = shared ?? (await apiKeys.findByHash(keyHash));
        if (match && !shared) void l2.set(keyHash, match, opts.ttlMs);
        if (match) {
          cache.set(keyHash, match, startedAt, now());
          keyHashById.set(match.key.id, keyHash);
          if (keyHashById.size > opts.maxEntries * 2) keyHashById.clear();
        }
        return match;
      },
      async touch(workspaceId, keyId, at) {
        await apiKeys.touch(workspaceId, keyId, at);
        const hash = keyHashById.get(keyId);
        if (hash) cache.touched(hash, at);
      },
      async revoke(workspaceId, keyId) {
        const done = await apiKeys.revoke(workspaceId, keyId);
        if (done) await changed(workspaceId);
        return done;
      },
    },
    members: {
      ...bind(members),
      async add(identity, member) {
        const result = await members.add(identity, member);
        if (result !== "already_member") await changed(member.workspace_id);
        return result;
      },
      async setRole(workspaceId, memberId, role, at) {
        const result = await members.setRole(workspaceId, memberId, role, at);
        if (result && result !== "last_owner") await changed(workspaceId);
        return result;
      },
      async remove(workspaceId, memberId) {
        const result = await members.remove(workspaceId, memberId);
        if (result === "ok") await changed(workspaceId);
        return result;
      },
    },
    workspaces: {
      ...bind(workspaces),
      async update(ws) {
        await workspaces.update(ws);
        await changed(ws.id);
      },
      async delete(workspaceId) {
        const done = await workspaces.delete(workspaceId);
        if (done) await changed(workspaceId);
        return done;
      },
    },
  };
}

/** A store's methods bound to it, so a decorator can spread them and override a few. */
function bind<T extends object>(store: T): T {
  const out: Record<string, unknown> = {};
  let proto: object | null = store;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const v = (store as Record<string, unknown>)[name];
      if (name !== "constructor" && typeof v === "function" && !(name in out)) out[name] = v.bind(store);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return out as T;
}
