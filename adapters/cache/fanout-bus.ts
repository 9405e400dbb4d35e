import type { InvalidationBus } from "./invalidation-bus.ts";

/**
 * Several buses as one: publish on all, listen on all. With PostgreSQL and Redis both present,
 * invalidations travel both ways, so either one being down leaves the other; a duplicate
 * invalidation costs nothing.
 */
export function fanoutBus(buses: InvalidationBus[]): InvalidationBus {
  return {
    async publish(workspaceId) {
      await Promise.all(buses.map((b) => b.publish(workspaceId).catch(() => {})));
    },
    subscribe(listener) {
      for (const b of buses) b.subscribe(listener);
    },
    async close() {
      for (const b of buses) await b.close().catch(() => {});
    },
  };
}
