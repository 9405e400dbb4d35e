import postgres from "postgres";
import type { InvalidationBus, InvalidationListener } from "../cache/invalidation-bus.ts";

const CHANNEL = "wks_auth_invalidate";

/**
 * Cross-instance invalidation over PostgreSQL LISTEN/NOTIFY, so several server instances on one
 * database need nothing else to agree that a key was revoked. On every (re)connect of the listener
 * the subscribers are told to forget everything: messages sent while it was away are lost.
 */
export async function createPostgresInvalidationBus(url: string): Promise<InvalidationBus> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const listeners: InvalidationListener[] = [];
  const emit = (id: string | "*") => {
    for (const l of listeners) l(id);
  };
  const sub = await sql.listen(CHANNEL, (payload) => emit(payload || "*"), () => emit("*"));
  return {
    async publish(workspaceId) {
      await sql.notify(CHANNEL, workspaceId);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      await sub.unlisten().catch(() => {});
      await sql.end({ timeout: 1 });
    },
  };
}
