import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoreLocation } from "./args.ts";
import { EXIT, Refusal } from "./exit-codes.ts";

/**
 * The SECRET_KEY each side runs with, as the server resolves it (server/secret.ts): the
 * environment's, else, for the embedded store, DATA_DIR/secret.key. A database server has no file:
 * its servers are given SECRET_KEY.
 */
export interface CopySecrets {
  /** What opens the source's keys; null when nothing names one. */
  source: string | null;
  /** Where the target's secret file is to be written (a file: target without one), else null. */
  writeTarget: string | null;
}

function fileSecret(dataDir: string): string | null {
  const file = join(dataDir, "secret.key");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

export function resolveCopySecrets(from: StoreLocation, to: StoreLocation, env: Record<string, string | undefined>): CopySecrets {
  const fromEnv = env.SECRET_KEY?.trim() || null;
  if (fromEnv !== null && fromEnv.length < 32) throw new Refusal(EXIT.secret, "Invalid SECRET_KEY: it must be at least 32 characters");
  const source = fromEnv ?? (from.kind === "file" ? fileSecret(from.dataDir) : null);
  if (to.kind !== "file") {
    if (source !== null && fromEnv === null) {
      throw new Refusal(
        EXIT.secret,
        `The target server will need the source's secret: run with SECRET_KEY set to the content of ${
          join((from as { dataDir: string }).dataDir, "secret.key")
        }, and start the target's servers with it`,
      );
    }
    return { source, writeTarget: null };
  }
  const targetFile = fileSecret(to.dataDir);
  if (targetFile !== null && targetFile !== source) {
    throw new Refusal(
      EXIT.secret,
      `${
        join(to.dataDir, "secret.key")
      } holds another secret than the source's: the copied API keys would not open there (remove the file, or copy elsewhere)`,
    );
  }
  // Written when absent, so a server on the target opens the keys with or without SECRET_KEY.
  return { source, writeTarget: targetFile === null && source !== null ? join(to.dataDir, "secret.key") : null };
}

/** Writes the embedded target's secret file as the server would have (mode 600). */
export function writeSecretFile(path: string, secret: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, secret + "\n", { mode: 0o600 });
  chmodSync(path, 0o600);
}
