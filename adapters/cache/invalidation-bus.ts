/**
 * Tells every server instance that cached authentication facts of a workspace changed. `"*"`
 * means "forget everything" (sent when a subscriber may have missed messages, e.g. after a
 * reconnect). Delivery is best effort; the cache's TTL bounds staleness if a message is lost.
 */
export type InvalidationListener = (workspaceId: string | "*") => void;

export interface InvalidationBus {
  publish(workspaceId: string): Promise<void>;
  subscribe(listener: InvalidationListener): void;
  close(): Promise<void>;
}

/** One process: the local cache is invalidated directly, so there is nobody else to tell. */
export function createLocalInvalidationBus(): InvalidationBus {
  return { publish: async () => {}, subscribe: () => {}, close: async () => {} };
}
