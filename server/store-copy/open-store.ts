import { join, resolve } from "node:path";
import type { Stores } from "../../core/mod.ts";
import type { StoreLocation } from "./args.ts";

/** The application name of the command's own PostgreSQL sessions (not the server's: liveness.ts). */
export const COPY_APPLICATION_NAME = "wks-store-copy";

/**
 * Opens a store as the server opens it (server/compose.ts): the embedded PGlite under
 * DATA_DIR/pglite, PostgreSQL or MongoDB by URL; migrated (or indexed) to this version. Long
 * statement bounds: a snapshot transaction stays open, idle between pages, while the target writes.
 */
export async function openLocation(l: StoreLocation): Promise<Stores> {
  if (l.kind === "file") {
    const { openPgliteStores } = await import("../../adapters/postgres/mod.ts");
    return openPgliteStores(join(resolve(l.dataDir), "pglite"), { topicReadCache: false });
  }
  if (l.kind === "postgres") {
    const { openPostgresStores } = await import("../../adapters/postgres/mod.ts");
    return openPostgresStores(l.url, {
      max: 4,
      statementTimeoutMs: 600_000,
      applicationName: COPY_APPLICATION_NAME,
      topicReadCache: false,
    });
  }
  const { openMongoStores } = await import("../../adapters/mongo/mod.ts");
  return openMongoStores(l.url, { clientOptions: { maxPoolSize: 4 } });
}
