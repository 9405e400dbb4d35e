/**
 * Installs Debian packages for the test services. The launchers start in parallel (npm test
 * starts PostgreSQL, Redis and FerretDB together), and two apt-get runs at once fail on dpkg's
 * lock: installs are queued one after another in this process, and apt itself is told to wait for
 * a lock another process holds.
 */
import { existsSync } from "node:fs";
import { runCommand } from "./command.ts";

let queue: Promise<unknown> = Promise.resolve();

export function canAptInstall(): boolean {
  return process.getuid?.() === 0 && existsSync("/etc/debian_version") && Bun.which("apt-get") !== null;
}

/** `apt-get update && apt-get install -y --no-install-recommends <packages>`, one install at a time. */
export function aptInstall(packages: string[]): Promise<void> {
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args: string[]) => runCommand(["apt-get", "-o", "DPkg::Lock::Timeout=300", ...args], { env });
  const next = queue.then(async () => {
    await apt(["update"]);
    await apt(["install", "-y", "--no-install-recommends", ...packages]);
  });
  queue = next.catch(() => {});
  return next;
}

/**
 * What a launcher needs from the machine: `find()` when present; otherwise, as root on Debian,
 * installed once from `pkg` and found again; otherwise an error saying what to install.
 */
export function findOrAptInstall<T>(find: () => T | null, pkg: string, missing: string): () => Promise<T> {
  let installing: Promise<T> | null = null;
  return async () => {
    const found = find();
    if (found) return found;
    if (!canAptInstall()) throw new Error(missing);
    installing ??= aptInstall([pkg]).then(() => {
      const after = find();
      if (!after) throw new Error(`${missing.split(":")[0]}: apt-get installed ${pkg} but it is still not found`);
      return after;
    });
    return installing;
  };
}
