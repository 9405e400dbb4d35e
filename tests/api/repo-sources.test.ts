import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppServer, bootstrapWorkspace, PROJECT_ROOT, SERVER_ENTRY, startAppServer } from "../support/app-server.ts";

/**
 * What a stranger can make the real server read (docs/decisions/052-server-paths-and-outbound-addresses.md):
 * `npm start`'s composition, with CODE_HOST_LOCAL_ROOTS naming one directory. The steps of ADR
 * 052's context (bootstrap a workspace, link a server path, anchor a topic to `**`) list nothing
 * outside the root. Remote URLs here are address literals only: nothing is resolved, nothing leaves
 * loopback.
 */
const root = mkdtempSync(join(tmpdir(), "repo-sources-"));
const repos = join(root, "repos");
let server: AppServer;
let key: string;
let ws: string;

function git(dir: string, ...args: string[]): void {
  const r = Bun.spawnSync(
    ["git", "-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

function makeRepo(dir: string, files: string[]): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const f of files) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "x\n");
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "c");
  return dir;
}

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as any };
};
const link = (clone_url: string, full_name = `x/y-${Math.random().toString(36).slice(2, 8)}`) =>
  call("POST", `${ws}/repos`, { provider: "github", full_name, clone_url });

beforeAll(async () => {
  makeRepo(join(repos, "app"), ["src/app.ts", "README.md"]);
  makeRepo(join(root, "outside"), ["private/credentials.txt"]);
  symlinkSync(join(root, "outside"), join(repos, "escape"));
  server = await startAppServer({ name: "repo-sources", env: { LOG_LEVEL: "warn", CODE_HOST_LOCAL_ROOTS: repos } });
  const boot = await bootstrapWorkspace(server.origin, "stranger");
  key = boot.apiKey;
  ws = `/workspaces/${boot.slug}`;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("linking a repo on the real server", () => {
  test("a path outside CODE_HOST_LOCAL_ROOTS is 400 VALIDATION_FAILED naming the setting, and nothing is linked", async () => {
    const res = await link("/some/path/on/the/server");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.message).toBe("Cannot read repo: /some/path/on/the/server is outside CODE_HOST_LOCAL_ROOTS");
    expect(res.body.error.details).toEqual([{ path: "/clone_url", message: res.body.error.message }]);
    expect((await call("GET", `${ws}/repos`)).body.total).toBe(0);
  });

  test("the server's own data (other workspaces' clones, the database), other paths, links out and file:// are all refused", async () => {
    const dataDir = server.dataDir!;
    for (
      const url of [
        dataDir,
        join(dataDir, "git-cache"),
        join(dataDir, "pglite"),
        PROJECT_ROOT,
        join(root, "outside"),
        join(repos, "..", "outside"),
        join(repos, "escape"),
        `file://${join(root, "outside")}`,
        `file://${join(repos, "escape")}`,
      ]
    ) {
      const res = await link(url);
      expect([url, res.status]).toEqual([url, 400]);
      expect(res.body.error.message).toContain("CODE_HOST_LOCAL_ROOTS");
    }
    expect((await call("GET", `${ws}/repos`)).body.total).toBe(0);
  });

  test("a remote URL on a non-public address is 400 naming CODE_HOST_ALLOW_PRIVATE", async () => {
    for (const url of ["https://169.254.169.254/latest.git", "https://2130706433/x.git", "https://[::1]/x.git", "git@10.0.0.1:x/y.git"]) {
      const res = await link(url);
      expect([url, res.status, res.body.error.code]).toEqual([url, 400, "VALIDATION_FAILED"]);
      expect(res.body.error.message).toContain("CODE_HOST_ALLOW_PRIVATE=true");
    }
  });

  test("a repo under the root is linked and indexed; a topic anchored to ** lists its files and nothing else", async () => {
    const res = await link(join(repos, "app"), "acme/app");
    expect(res.status).toBe(201);
    const id = res.body.id;
    const deadline = Date.now() + 30_000;
    let index: any;
    while (Date.now() < deadline) {
      index = (await call("GET", `${ws}/repos/${id}/index`)).body;
      if (index.file_count) break;
      await Bun.sleep(100);
    }
    expect(index.file_count).toBe(2);
    const topic = await call("POST", `${ws}/topics`, { title: "Everything", repo_id: id, anchors: ["**"] });
    expect(topic.status).toBe(201);
    expect(topic.body.anchor_validation.anchors[0].samples).toEqual(["README.md", "src/app.ts"]);
  });
});

describe("the embedded server's address", () => {
  test("it listens on 127.0.0.1 only (no HOST set): the kernel's table of listening sockets says so", () => {
    const port = Number(new URL(server.origin).port);
    const hex = port.toString(16).toUpperCase().padStart(4, "0");
    const listening = (file: string) =>
      readFileSync(file, "utf8").split("\n").slice(1).map((l) => l.trim().split(/\s+/)).filter((f) =>
        f[3] === "0A" && f[1]?.endsWith(`:${hex}`)
      )
        .map((f) => f[1]!.split(":")[0]);
    // 0100007F is 127.0.0.1 in the kernel's byte order; 00000000 would be every interface.
    expect(listening("/proc/net/tcp")).toEqual(["0100007F"]);
    expect(listening("/proc/net/tcp6")).toEqual([]);
  });
});

describe("settings that stop the start", () => {
  async function startFails(env: Record<string, string>): Promise<string> {
    const dataDir = mkdtempSync(join(tmpdir(), "repo-sources-data-"));
    try {
      const proc = Bun.spawn([process.execPath, SERVER_ENTRY], {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn", ...env },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      expect(code).not.toBe(0);
      return out + err;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  test(
    "CODE_HOST_LOCAL_PATHS (replaced), a root that is no directory, a bad WORKSPACE_BOOTSTRAP, operator mode with no operator key",
    async () => {
      expect(await startFails({ CODE_HOST_LOCAL_PATHS: "true" })).toContain("it is replaced by CODE_HOST_LOCAL_ROOTS");
      expect(await startFails({ CODE_HOST_LOCAL_ROOTS: join(root, "nope") })).toContain(
        `Invalid CODE_HOST_LOCAL_ROOTS: ${join(root, "nope")} is not a directory`,
      );
      expect(await startFails({ WORKSPACE_BOOTSTRAP: "closed" })).toContain("Invalid WORKSPACE_BOOTSTRAP");
      // Never connected to: the start stops before the store is opened.
      const onPostgres = { DATABASE_URL: "postgres://u:p@127.0.0.1:1/none", SECRET_KEY: "s".repeat(40), WORKSPACE_BOOTSTRAP: "operator" };
      expect(await startFails(onPostgres)).toContain("WORKSPACE_BOOTSTRAP=operator needs PLATFORM_ADMIN_KEY");
    },
    60_000,
  );
});
