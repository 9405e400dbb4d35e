import pkg from "../package.json" with { type: "json" };
import type { BuildInfo } from "./deps.ts";

/** Version metadata: the package version, BUILD_ID and GIT_COMMIT from the deploy, else the checkout's HEAD. */
export function readBuildInfo(env: Record<string, string | undefined> = process.env): BuildInfo {
  let commit = env.GIT_COMMIT;
  if (!commit) {
    try {
      const out = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: import.meta.dir, stderr: "ignore" });
      commit = out.exitCode === 0 ? out.stdout.toString().trim() : undefined;
    } catch {
      commit = undefined;
    }
  }
  return {
    api_version: "v1",
    version: pkg.version,
    build: env.BUILD_ID || "dev",
    commit: commit || "unknown",
    started_at: new Date().toISOString(),
  };
}
