import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The server secret that encrypts API keys at rest. From SECRET_KEY when set. The embedded store
 * generates one into its data dir on first start; a database server (PostgreSQL or MongoDB) shared
 * by several instances needs them all to agree, so there SECRET_KEY is required.
 */
export function resolveSecret(
  opts: { secretKey: string | null; dataDir: string; databaseUrl: string | null; mongoUrl: string | null },
): string {
  if (opts.secretKey) {
    if (opts.secretKey.length < 32) throw new Error("Invalid SECRET_KEY: it must be at least 32 characters");
    return opts.secretKey;
  }
  if (opts.databaseUrl || opts.mongoUrl) {
    throw new Error("SECRET_KEY is required with DATABASE_URL or MONGO_URL: every server instance must share it");
  }
  const file = join(opts.dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(opts.dataDir, { recursive: true });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
