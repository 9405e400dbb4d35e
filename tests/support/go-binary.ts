import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Tools we build from Go modules (FerretDB for the tests, PocketBase for the benchmark): where a
 * build is cached between runs, where `go` is, and one build at a time per process.
 */

/** `$XDG_CACHE_HOME/wks-service/<dir>/<file>` (`~/.cache/...` without XDG). */
export function goCachePath(dir: string, file: string): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "wks-service", dir, file);
}

export function findGo(): string | null {
  const onPath = Bun.which("go");
  if (onPath) return onPath;
  const usual = "/usr/local/go/bin/go";
  return existsSync(usual) ? usual : null;
}

const building = new Map<string, Promise<string>>();

/**
 * The binary: the path in `envVar` when set (it must exist), else `cached` when built before,
 * else `build(cached)` (once per process, however many ask; retried after a failure).
 */
export function goBinary(what: string, envVar: string, cached: string, build: (target: string) => Promise<string>): Promise<string> {
  const fromEnv = process.env[envVar];
  if (fromEnv) {
    if (!existsSync(fromEnv)) return Promise.reject(new Error(`Cannot start ${what}: ${envVar}=${fromEnv} does not exist`));
    return Promise.resolve(fromEnv);
  }
  if (existsSync(cached)) return Promise.resolve(cached);
  let pending = building.get(cached);
  if (!pending) {
    pending = build(cached).catch((e) => {
      building.delete(cached);
      throw e;
    });
    building.set(cached, pending);
  }
  return pending;
}

/**
 * Puts a built executable at `target` atomically: copied next to it first (the same file system),
 * then renamed, so a concurrent run sees either no binary or a whole one.
 */
export function installExecutable(built: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  copyFileSync(built, partial);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
}
