import type { WorkspaceEvent } from "./event.ts";

export type Unsubscribe = () => void;

/**
 * Fans workspace events out to live subscribers, on this instance and (with a shared broker) on
 * every other. Delivery is at-most-once and best effort: subscribers that need history read it
 * from a store. `publish` never throws to its caller; a broker outage drops events.
 */
export interface EventBus {
  publish(event: WorkspaceEvent): Promise<void>;
  subscribe(workspaceId: string, listener: (event: WorkspaceEvent) => void): Unsubscribe;
  close(): Promise<void>;
}
