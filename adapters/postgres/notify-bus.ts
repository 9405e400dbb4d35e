import postgres from "postgres";
import type { InvalidationBus, InvalidationListener } from "../cache/invalidation-bus.ts";
import { isConnectionLoss, unavailableOr } from "./connection-failures.ts";
import { connectionOptions, type PostgresJsOptions } from "./postgres-js-driver.ts";
import { ReplaceablePool } from "./postgres-js-pool.ts";

const CHANNEL = "wks_auth_invalidate";

/**
 * Cross-instance invalidation over PostgreSQL LISTEN/NOTIFY, so several server instances on one
 * database need nothing else to agree that a key was revoked. On every (re)connect of the listener
 * the subscribers are told to forget everything: messages sent while it was away are lost.
 */
export async function createPostgresInvalidationBus(url: string, opts: PostgresJsOptions = {}): Promise<InvalidationBus> {
  // The pools' own connection settings: after an outage the listener is back within a second.
  // postgres.js re-listens on its own after a lost connection; publishing goes through a pool of
  // its own, replaced when it loses its connection as the stores' are.
  const sql = postgres(url, { ...connectionOptions(opts), max: 1 });
  const publisher = new ReplaceablePool(() => postgres(url, { ...connectionOptions(opts), max: 1 }), 1);
  const listeners: InvalidationListener[] = [];
  const emit = (id: string | "*") => {
    for (const l of listeners) l(id);
  };
  const sub = await sql.listen(CHANNEL, (payload) => emit(payload || "*"), () => emit("*"));
  return {
    async publish(workspaceId) {
      const client = publisher.get();
      try {
        await client.notify(CHANNEL, workspaceId);
      } catch (e) {
        if (isConnectionLoss(e)) publisher.lost(client);
        throw unavailableOr(e);
      }
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      await sub.unlisten().catch(() => {});
      await Promise.all([sql.end({ timeout: 1 }), publisher.end(1)]);
    },
  };
}
