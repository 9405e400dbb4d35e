import type { WorkspaceEvent } from "../../core/events/event.ts";
import type { EventBus, Unsubscribe } from "../../core/events/ports.ts";
import type { RedisConnection } from "./connection.ts";

/** `wks:{<workspace_id>}:events`: the hash tag keeps a workspace's channel on its shard (SPUBLISH-ready). */
export const eventChannel = (workspaceId: string) => `wks:{${workspaceId}}:events`;

interface Envelope {
  /** the publishing bus, so it can skip its own echo (it delivered locally already) */
  o: string;
  e: WorkspaceEvent;
}

function parse(message: string): Envelope | null {
  try {
    const v = JSON.parse(message) as Partial<Envelope> | null;
    const e = v?.e;
    if (!v || typeof v.o !== "string" || !e || typeof e !== "object") return null;
    if (typeof e.id !== "string" || typeof e.workspace_id !== "string" || typeof e.type !== "string") return null;
    if (typeof e.at !== "string" || (e.actor_id !== null && typeof e.actor_id !== "string")) return null;
    if (!e.data || typeof e.data !== "object" || Array.isArray(e.data)) return null;
    return v as Envelope;
  } catch {
    return null;
  }
}

export interface RedisEventBus extends EventBus {
  /** Resolves once the Redis subscriptions asked for so far are in effect, or at once while Redis is unreachable (`subscribe` cannot wait). */
  settled(): Promise<void>;
}

/**
 * Fans workspace events out to every instance over Redis pub/sub, one channel per workspace.
 * An instance subscribes to a workspace's channel when its first local listener arrives and
 * unsubscribes when the last one leaves, so Redis only sends an instance the workspaces someone
 * there is watching (a single pattern subscription would ship every event to every instance).
 *
 * Local listeners get an event straight from `publish`, not through Redis: with Redis down,
 * subscribers on the publishing instance still see it; other instances miss it (at-most-once,
 * as the port allows). `publish` never throws and waits at most the command timeout.
 */
export function createRedisEventBus(conn: RedisConnection): RedisEventBus {
  const origin = crypto.randomUUID();
  const subs = new Map<string, Set<(e: WorkspaceEvent) => void>>();
  let closed = false;

  const deliver = (event: WorkspaceEvent) => {
    for (const l of subs.get(event.workspace_id) ?? []) {
      try {
        l(event);
      } catch {
        // one failing subscriber must not stop the others
      }
    }
  };
  const onMessage = (message: string, channel: string) => {
    const env = parse(message);
    if (!env || env.o === origin) return;
    // A message must name the workspace of the channel it came on.
    if (eventChannel(env.e.workspace_id) !== channel) return;
    deliver(env.e);
  };

  return {
    async publish(event) {
      if (closed) return;
      deliver(event);
      const payload = JSON.stringify({ o: origin, e: event } satisfies Envelope);
      await conn.run("event publish", (c) => c.publish(eventChannel(event.workspace_id), payload)).catch(() => {});
    },
    subscribe(workspaceId, listener): Unsubscribe {
      let set = subs.get(workspaceId);
      if (!set) {
        subs.set(workspaceId, set = new Set());
        void conn.subscribe(eventChannel(workspaceId), onMessage);
      }
      set.add(listener);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        set.delete(listener);
        if (set.size === 0 && subs.get(workspaceId) === set) {
          subs.delete(workspaceId);
          void conn.unsubscribe(eventChannel(workspaceId), onMessage);
        }
      };
    },
    settled: () => conn.settled(),
    async close() {
      closed = true;
      const channels = [...subs.keys()];
      subs.clear();
      await Promise.all(channels.map((ws) => conn.unsubscribe(eventChannel(ws), onMessage)));
    },
  };
}
