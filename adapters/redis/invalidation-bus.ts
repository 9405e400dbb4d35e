import type { InvalidationBus, InvalidationListener } from "../cache/invalidation-bus.ts";
import type { RedisConnection } from "./connection.ts";

/** One channel for every workspace: messages are tiny and every instance needs all of them. */
export const INVALIDATION_CHANNEL = "wks:auth:invalidate";

/**
 * Cross-instance invalidation of the authentication cache over Redis pub/sub. Each time the
 * subscription is (re)established the listeners get `"*"`: messages sent while this instance was
 * not subscribed are lost, so it forgets everything. `publish` never throws and never waits more
 * than the connection's command timeout; a message lost while Redis is down is covered by that
 * `"*"` on the receiving side and by the cache TTL.
 */
export async function createRedisInvalidationBus(conn: RedisConnection): Promise<InvalidationBus> {
  const listeners = new Set<InvalidationListener>();
  const emit = (id: string) => {
    for (const l of listeners) {
      try {
        l(id);
      } catch {
        // one failing listener must not stop the others
      }
    }
  };
  const onMessage = (message: string) => {
    if (message) emit(message);
  };
  const offResubscribed = conn.onResubscribed(() => emit("*"));
  await conn.subscribe(INVALIDATION_CHANNEL, onMessage);
  let closed = false;
  return {
    async publish(workspaceId) {
      if (closed) return;
      await conn.run("invalidation publish", (c) => c.publish(INVALIDATION_CHANNEL, workspaceId)).catch(() => {});
    },
    subscribe(listener) {
      listeners.add(listener);
    },
    async close() {
      closed = true;
      offResubscribed();
      listeners.clear();
      await conn.unsubscribe(INVALIDATION_CHANNEL, onMessage);
    },
  };
}
