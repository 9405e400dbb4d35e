import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const PLATFORM_KEY_MIN_LENGTH = 32;

export interface PlatformKey {
  /** The operator's key; null: the operator surface is off (403 for everyone). */
  key: string | null;
  /** The file it was read from or generated into, to log (never the key itself). */
  file: string | null;
}

/**
 * The platform operator's key (ADR 021). From PLATFORM_ADMIN_KEY when
 * set. The embedded store generates one into `DATA_DIR/platform-admin.key` (mode 600, like
 * `secret.key`) so a self-hosted user can grant credits at once; on a database server it must be
 * configured, or the operator surface stays off.
 */
export function resolvePlatformKey(
  opts: { platformAdminKey: string | null; dataDir: string; databaseUrl: string | null; mongoUrl: string | null },
): PlatformKey {
  if (opts.platformAdminKey) {
    if (opts.platformAdminKey.length < PLATFORM_KEY_MIN_LENGTH) {
      throw new Error(`Invalid PLATFORM_ADMIN_KEY: it must be at least ${PLATFORM_KEY_MIN_LENGTH} characters`);
    }
    return { key: opts.platformAdminKey, file: null };
  }
  if (opts.databaseUrl || opts.mongoUrl) return { key: null, file: null };
  const file = join(opts.dataDir, "platform-admin.key");
  if (existsSync(file)) {
    const key = readFileSync(file, "utf8").trim();
    if (key.length < PLATFORM_KEY_MIN_LENGTH) {
      throw new Error(`Invalid ${file}: the key must be at least ${PLATFORM_KEY_MIN_LENGTH} characters`);
    }
    return { key, file };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const key = "wkp_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  writeFileSync(file, key + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, file };
}
