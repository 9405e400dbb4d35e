import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;

describe("npm run worker (workers/main.ts)", () => {
  test("refuses to start without a shared job queue, saying why, and touches no data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "worker-entry-"));
    try {
      const child = Bun.spawn([process.execPath, "workers/main.ts"], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
      expect(code).toBe(1);
      expect(stderr).toContain("Cannot start a worker: there is no shared job queue to consume");
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
