import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createGitCodeHost } from "../../adapters/git/code-host.ts";
import type { CodeHostError } from "../../core/code-context/ports.ts";
import type { Repo } from "../../core/workspaces/model.ts";

/**
 * The git adapter of the `CodeHost` port, against real repositories: read in place by path, and
 * cloned (bare, partial) then fetched over git's own protocol for `file://` URLs.
 */
const root = mkdtempSync(join(tmpdir(), "codectx-git-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(dir: string, ...args: string[]): string {
  const r = Bun.spawnSync(
    ["git", "-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

function commit(dir: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "c");
  return git(dir, "rev-parse", "HEAD");
}

const source = join(root, "source");
mkdirSync(source);
git(source, "init", "-q", "-b", "main");
const first = commit(source, { "src/a.ts": "", "src/with space.ts": "", "docs/ü.md": "", ".github/ci.yml": "" });

const repo = (clone_url: string | null, over: Partial<Repo> = {}): Repo => ({
  id: "01939a3e-0000-7000-8000-000000000001",
  workspace_id: "01939a3e-0000-7000-8000-000000000002",
  provider: "git",
  full_name: "local/source",
  default_branch: "main",
  clone_url,
  created_at: "2026-01-01T00:00:00.000Z",
  ...over,
});

async function failure(p: Promise<unknown>): Promise<CodeHostError> {
  try {
    await p;
  } catch (e) {
    return e as CodeHostError;
  }
  throw new Error("expected a CodeHostError");
}

describe("git CodeHost", () => {
  const host = createGitCodeHost({ cacheDir: join(root, "cache"), allowLocalPaths: true });

  test("listFiles() reads a local repository's default branch in place: commit and every path, sorted by git", async () => {
    expect(await host.listFiles(repo(source))).toEqual({
      commit: first,
      files: [".github/ci.yml", "docs/ü.md", "src/a.ts", "src/with space.ts"],
    });
  });

  test("listFiles() clones a URL once (bare, partial) and fetches it on the next call", async () => {
    const url = `file://${source}`;
    expect((await host.listFiles(repo(url))).commit).toBe(first);
    const next = commit(source, { "src/b.ts": "" });
    const again = await host.listFiles(repo(url));
    expect(again.commit).toBe(next);
    expect(again.files).toContain("src/b.ts");
    // Two concurrent reads of one URL share the cache directory safely.
    const both = await Promise.all([host.listFiles(repo(url)), host.listFiles(repo(url))]);
    expect(both.map((b) => b.commit)).toEqual([next, next]);
  });

  test("listFiles() refuses what it must not read, with a typed reason", async () => {
    expect((await failure(host.listFiles(repo(null)))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo("-uhello")))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo("ext::sh -c touch% /tmp/pwned")))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo(source, { default_branch: "--upload-pack=x" })))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo(source, { default_branch: "develop" })))).reason).toBe("no_branch");
    expect((await failure(host.listFiles(repo(join(root, "missing"))))).reason).toBe("unreachable");
    const shared = createGitCodeHost({ cacheDir: join(root, "cache2"), allowLocalPaths: false });
    expect((await failure(shared.listFiles(repo(source)))).reason).toBe("not_allowed");
    expect((await failure(shared.listFiles(repo(`file://${source}`)))).reason).toBe("not_allowed");
    expect(existsSync("/tmp/pwned")).toBe(false);
  });

  test("listFiles() is bounded in time", async () => {
    const slow = createGitCodeHost({ cacheDir: join(root, "cache3"), allowLocalPaths: true, networkTimeoutMs: 1 });
    expect((await failure(slow.listFiles(repo(`file://${source}`)))).reason).toBe("timeout");
  });
});
