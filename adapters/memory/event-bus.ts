import type { WorkspaceEvent } from "../../core/events/event.ts";
import type { EventBus, Unsubscribe } from "../../core/events/ports.ts";

/** Delivers events to subscribers of this process only. */
export function createMemoryEventBus(): EventBus {
  const subs = new Map<string, Set<(e: WorkspaceEvent) => void>>();
  return {
    async publish(event) {
      for (const l of subs.get(event.workspace_id) ?? []) {
        try {
          l(event);
        } catch {
          // one failing subscriber must not stop the others
        }
      }
    },
    subscribe(workspaceId, listener): Unsubscribe {
      let set = subs.get(workspaceId);
      if (!set) subs.set(workspaceId, set = new Set());
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) subs.delete(workspaceId);
      };
    },
    async close() {
      subs.clear();
    },
  };
}
