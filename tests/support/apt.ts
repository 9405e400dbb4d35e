/**
 * Installs Debian packages for the test services. The launchers start in parallel (npm test
 * starts PostgreSQL, Redis and FerretDB together), and two apt-get runs at once fail on dpkg's
 * lock: installs are queued one after another in this process, and apt itself is told to wait for
 * a lock another process holds.
 */
import { existsSync } from "node:fs";

let queue: Promise<unknown> = Promise.resolve();

export function canAptInstall(): boolean {
  return process.getuid?.() === 0 && existsSync("/etc/debian_version") && Bun.which("apt-get") !== null;
}

async function aptGet(args: string[]): Promise<void> {
  const cmd = ["apt-get", "-o", "DPkg::Lock::Timeout=300", ...args];
  const proc = Bun.spawn(cmd, {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`Command failed (exit ${code}): ${cmd.join(" ")}\n${err || out}`);
}

/** `apt-get update && apt-get install -y --no-install-recommends <packages>`, one install at a time. */
export function aptInstall(packages: string[]): Promise<void> {
  const next = queue.then(async () => {
    await aptGet(["update"]);
    await aptGet(["install", "-y", "--no-install-recommends", ...packages]);
  });
  queue = next.catch(() => {});
  return next;
}
