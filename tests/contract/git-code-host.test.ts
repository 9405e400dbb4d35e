import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createGitCodeHost, type GitCodeHostOptions } from "../../adapters/git/code-host.ts";
import { pinnedTo, remoteTarget } from "../../adapters/git/remote-target.ts";
import type { CodeHostError } from "../../core/code-context/ports.ts";
import type { Repo } from "../../core/workspaces/model.ts";
import { noDns, tableResolver } from "../support/resolver.ts";

/**
 * The git adapter of the `CodeHost` port, against real repositories: read in place by path, and
 * cloned (bare, partial) then fetched over git's own protocol for `file://` URLs; what it refuses
 * to read (docs/decisions/052-server-paths-and-outbound-addresses.md): local paths outside
 * CODE_HOST_LOCAL_ROOTS, symbolic links out of them, the service's own data, remote hosts on
 * non-public addresses. Names are resolved from a table, never by real DNS; the only connections
 * made are to listeners on 127.0.0.1.
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

function makeRepo(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  commit(dir, files);
  return dir;
}

/** The operator's root; the service's data directory inside it, as `npm start` in a checkout has it. */
const allowed = join(root, "allowed");
const dataDir = join(allowed, "data");
/** A repository on the same disk but outside every root: nothing here may be read. */
const outside = makeRepo(join(root, "outside"), { "secret/keys.txt": "" });

const source = join(allowed, "source");
mkdirSync(source, { recursive: true });
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

const hostWith = (over: Partial<GitCodeHostOptions> = {}) =>
  createGitCodeHost({
    cacheDir: join(dataDir, "git-cache"),
    localRoots: [allowed],
    dataDir,
    allowPrivate: false,
    resolver: noDns,
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

/** A TCP listener on 127.0.0.1 that keeps the first bytes of every connection and closes it. */
function listener() {
  const seen: Uint8Array[] = [];
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket, data) {
        seen.push(new Uint8Array(data));
        socket.end();
      },
    },
  });
  return { port: server.port, seen, stop: () => server.stop(true) };
}

describe("git CodeHost", () => {
  const host = hostWith();

  test("listFiles() reads a local repository's default branch in place: commit and every path, sorted by git", async () => {
    expect(await host.listFiles(repo(source))).toEqual({
      commit: first,
      files: [".github/ci.yml", "docs/ü.md", "src/a.ts", "src/with space.ts"],
    });
    expect(await host.refusal!(repo(source))).toBeNull();
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
    expect(await host.refusal!(repo(null))).toBeNull(); // nothing to read: linked, its index says so
    expect((await failure(host.listFiles(repo("-uhello")))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo("ext::sh -c touch% /tmp/pwned")))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo(source, { default_branch: "--upload-pack=x" })))).reason).toBe("invalid_url");
    expect((await failure(host.listFiles(repo(source, { default_branch: "develop" })))).reason).toBe("no_branch");
    expect((await failure(host.listFiles(repo(join(allowed, "missing"))))).reason).toBe("unreachable");
    expect(existsSync("/tmp/pwned")).toBe(false);
  });

  test("listFiles() is bounded in time", async () => {
    const slow = hostWith({ cacheDir: join(root, "cache-slow"), networkTimeoutMs: 1 });
    expect((await failure(slow.listFiles(repo(`file://${source}`)))).reason).toBe("timeout");
  });
});

describe("git CodeHost: the server's disk only under CODE_HOST_LOCAL_ROOTS", () => {
  const host = hostWith();

  /** Both checks refuse: linking (`refusal`) and reading (`listFiles`), with the same message. */
  async function refused(url: string, h = host): Promise<string> {
    const e = await failure(h.listFiles(repo(url)));
    expect(e.reason).toBe("not_allowed");
    expect(await h.refusal!(repo(url))).toBe(e.message);
    return e.message;
  }

  test("no roots (CODE_HOST_LOCAL_ROOTS unset): no local path or file:// URL is read, the setting named", async () => {
    const none = hostWith({ localRoots: [], cacheDir: join(root, "cache-none") });
    expect(await refused(source, none)).toBe("Cannot read repo: this server reads no local paths (CODE_HOST_LOCAL_ROOTS is unset)");
    expect(await refused(`file://${source}`, none)).toContain("CODE_HOST_LOCAL_ROOTS is unset");
  });

  test("a path outside every root is refused, also spelled with `..` or as a file:// URL", async () => {
    expect(await refused(outside)).toBe(`Cannot read repo: ${outside} is outside CODE_HOST_LOCAL_ROOTS`);
    expect(await refused(join(allowed, "..", "outside"))).toContain("outside CODE_HOST_LOCAL_ROOTS");
    expect(await refused(`file://${allowed}/../outside`)).toContain("outside CODE_HOST_LOCAL_ROOTS");
    expect(await refused("/etc")).toContain("outside CODE_HOST_LOCAL_ROOTS");
  });

  test("a symbolic link inside a root that points out of it is refused, by path and by file:// URL", async () => {
    const link = join(allowed, "link-out");
    symlinkSync(outside, link);
    expect(await refused(link)).toBe(
      `Cannot read repo: ${link} leads outside CODE_HOST_LOCAL_ROOTS (through a symbolic link, a .git file or borrowed objects)`,
    );
    expect(await refused(`file://${link}`)).toContain("outside CODE_HOST_LOCAL_ROOTS");
    // A root that is itself a link is followed: what it leads to is the root.
    const viaLink = join(root, "root-link");
    symlinkSync(allowed, viaLink);
    const linkedRoot = hostWith({ localRoots: [viaLink], cacheDir: join(root, "cache-linked") });
    expect((await linkedRoot.listFiles(repo(join(viaLink, "source")))).files).toContain("src/a.ts");
    expect((await failure(linkedRoot.listFiles(repo(join(viaLink, "link-out"))))).reason).toBe("not_allowed");
  });

  test("a repository whose git directory is elsewhere (a .git file) or that borrows objects from outside is refused", async () => {
    const gitfile = join(allowed, "gitfile");
    mkdirSync(gitfile);
    writeFileSync(join(gitfile, ".git"), `gitdir: ${join(outside, ".git")}\n`);
    expect(await refused(gitfile)).toBe(
      `Cannot read repo: ${gitfile} leads outside CODE_HOST_LOCAL_ROOTS (through a symbolic link, a .git file or borrowed objects)`,
    );
    const borrower = makeRepo(join(allowed, "borrower"), { "x.txt": "" });
    writeFileSync(join(borrower, ".git", "objects", "info", "alternates"), `${join(outside, ".git", "objects")}\n`);
    expect(await refused(borrower)).toContain("(an object directory it borrows) leads outside CODE_HOST_LOCAL_ROOTS");
  });

  test("a directory inside a root that is no repository is not read as the repository above it", async () => {
    // `outside/secret` is in a repository whose .git is outside the root: git must not walk up to it.
    const inner = hostWith({ localRoots: [join(outside, "secret")], cacheDir: join(root, "cache-inner") });
    const e = await failure(inner.listFiles(repo(join(outside, "secret"))));
    expect(e.reason).toBe("unreachable");
    expect(e.message).toContain("is not a git repository");
  });

  test("the service's own data (DATA_DIR, GIT_CACHE_DIR) is never read, even when a root contains it", async () => {
    const inData = makeRepo(join(dataDir, "planted"), { "a.txt": "" });
    expect(await refused(inData)).toBe(
      `Cannot read repo: ${inData} is in this service's own data directory (DATA_DIR or GIT_CACHE_DIR), which is never read as a repo`,
    );
    // Another workspace's clone in the git cache (made by the file:// test above).
    const clones = readdirSync(join(dataDir, "git-cache")).filter((d) => d.endsWith(".git"));
    expect(clones.length).toBeGreaterThan(0);
    expect(await refused(join(dataDir, "git-cache", clones[0]!))).toContain("own data directory");
    // A cache directory outside DATA_DIR is just as closed.
    const cache = join(allowed, "elsewhere-cache");
    const withCache = hostWith({ cacheDir: cache });
    await withCache.listFiles(repo(`file://${source}`));
    const clone = readdirSync(cache).find((d) => d.endsWith(".git"))!;
    expect(await refused(join(cache, clone), withCache)).toContain("own data directory");
    // And a link into it from inside the root.
    const link = join(allowed, "link-data");
    symlinkSync(inData, link);
    expect(await refused(link)).toContain("own data directory");
  });

  test("a path allowed when linked is refused at the next read once its symbolic link leads out", async () => {
    const link = join(allowed, "moving");
    symlinkSync(source, link);
    expect(await host.refusal!(repo(link))).toBeNull();
    expect((await host.listFiles(repo(link))).files).toContain("src/a.ts");
    rmSync(link);
    symlinkSync(outside, link);
    expect((await failure(host.listFiles(repo(link)))).reason).toBe("not_allowed");
    // And a host whose roots no longer hold it refuses it too.
    const narrower = hostWith({ localRoots: [join(allowed, "elsewhere")], cacheDir: join(root, "cache-narrow") });
    expect((await failure(narrower.listFiles(repo(source)))).reason).toBe("not_allowed");
  });
});

describe("git CodeHost: remote hosts on public addresses only", () => {
  test("a host that resolves to a non-public address is refused when linked and when read, naming CODE_HOST_ALLOW_PRIVATE", async () => {
    const resolver = tableResolver({ "git.internal.test": ["10.0.0.7"], "metadata.test": ["169.254.169.254"] });
    const host = hostWith({ resolver, cacheDir: join(root, "cache-remote") });
    const url = "https://git.internal.test/acme/api.git";
    const message =
      "Cannot read repo: git.internal.test resolves to 10.0.0.7, a private address; this server reads repos on public addresses only (CODE_HOST_ALLOW_PRIVATE=true allows a git server on a private network)";
    expect(await host.refusal!(repo(url))).toBe(message);
    const e = await failure(host.listFiles(repo(url)));
    expect([e.reason, e.message]).toEqual(["not_allowed", message]);
    expect(await host.refusal!(repo("ssh://git@metadata.test/acme/api.git"))).toContain("169.254.169.254, a link-local address");
    expect(await host.refusal!(repo("git@metadata.test:acme/api.git"))).toContain("a link-local address");
  });

  test("address literals in every spelling are judged as the address they are", async () => {
    const host = hostWith({ resolver: tableResolver(), cacheDir: join(root, "cache-literals") });
    for (
      const url of [
        "https://127.0.0.1/x.git",
        "https://2130706433/x.git",
        "https://0x7f.1/x.git",
        "https://017700000001/x.git",
        "https://[::1]:8443/x.git",
        "https://[::ffff:7f00:1]/x.git",
        "https://169.254.169.254/latest/meta-data.git",
        "ssh://git@[fd00::1]/x.git",
        "ssh://git@10.1.2.3:2222/x.git",
        "git@192.168.1.10:x/y.git",
      ]
    ) {
      const why = await host.refusal!(repo(url));
      expect(why, url).toContain("this server reads repos on public addresses only");
    }
  });

  test("a hosted provider's repo without clone_url is judged by its public address", async () => {
    const host = hostWith({ resolver: tableResolver({ "github.com": ["10.0.0.1"] }), cacheDir: join(root, "cache-hosted") });
    expect(await host.refusal!(repo(null, { provider: "github", full_name: "acme/api" }))).toContain(
      "github.com resolves to 10.0.0.1, a private address",
    );
  });

  test("a name that resolved to a public address when linked and to a private one when read is refused (no rebinding)", async () => {
    let calls = 0;
    const resolver = {
      resolve: () => Promise.resolve(++calls === 1 ? ["93.184.216.34"] : ["192.168.0.5"]),
    };
    const host = hostWith({ resolver, cacheDir: join(root, "cache-rebind") });
    const url = "https://rebind.test/acme/api.git";
    expect(await host.refusal!(repo(url))).toBeNull(); // judged, nothing connected to
    const e = await failure(host.listFiles(repo(url)));
    expect(e.reason).toBe("not_allowed");
    expect(e.message).toContain("rebind.test resolves to 192.168.0.5, a private address");
  });

  test("a name that does not resolve is linked (it may later) and its read fails as unreachable, without running git", async () => {
    const host = hostWith({ resolver: noDns, cacheDir: join(root, "cache-nxdomain") });
    const url = "https://nowhere.test/acme/api.git";
    expect(await host.refusal!(repo(url))).toBeNull();
    const e = await failure(host.listFiles(repo(url)));
    expect([e.reason, e.message]).toEqual(["unreachable", "Cannot read repo: nowhere.test does not resolve"]);
    expect(existsSync(join(root, "cache-nxdomain"))).toBe(false);
  });

  test("a loopback listener sees no connection for a refused host; with CODE_HOST_ALLOW_PRIVATE=true git goes there", async () => {
    const l = listener();
    try {
      const resolver = tableResolver({ "loop.test": ["127.0.0.1"] });
      const url = `https://127.0.0.1:${l.port}/acme/api.git`;
      const closed = hostWith({ resolver, cacheDir: join(root, "cache-closed") });
      expect((await failure(closed.listFiles(repo(url)))).reason).toBe("not_allowed");
      expect((await failure(closed.listFiles(repo(`https://loop.test:${l.port}/acme/api.git`)))).reason).toBe("not_allowed");
      expect(l.seen).toEqual([]);
      const open = hostWith({ resolver, allowPrivate: true, cacheDir: join(root, "cache-open") });
      expect(await open.refusal!(repo(url))).toBeNull();
      expect((await failure(open.listFiles(repo(url)))).reason).toBe("unreachable");
      expect(l.seen.length).toBe(1);
      expect(l.seen[0]![0]).toBe(0x16); // a TLS handshake: git did connect
    } finally {
      l.stop();
    }
  });
});

describe("remoteTarget() and pinnedTo()", () => {
  test("remoteTarget() reads the host and port git connects to", () => {
    expect(remoteTarget("https://u:p@Git.Example.com:8443/a/b.git")).toEqual({ scheme: "https", host: "Git.Example.com", port: 8443 });
    expect(remoteTarget("https://github.com/a/b.git")).toEqual({ scheme: "https", host: "github.com", port: 443 });
    expect(remoteTarget("https://[::1]/a.git")).toEqual({ scheme: "https", host: "::1", port: 443 });
    expect(remoteTarget("ssh://git@host.test:2222/a.git")).toEqual({ scheme: "ssh", host: "host.test", port: 2222 });
    expect(remoteTarget("git@host.test:a/b.git")).toEqual({ scheme: "ssh", host: "host.test", port: 22 });
    expect(remoteTarget("https://a@b@host.test/x.git")).toBeNull();
    expect(remoteTarget("https://host.test:99999/x.git")).toBeNull();
    expect(remoteTarget("https://host.test:1:2/x.git")).toBeNull();
  });

  /** Runs `git ls-remote url` with the pin's options (a name real DNS cannot resolve: `.invalid`). */
  async function lsRemote(url: string, pin: { config: string[]; env: Record<string, string> }) {
    const proc = Bun.spawn(["git", ...pin.config, "ls-remote", "--", url], {
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ALLOW_PROTOCOL: "https:ssh", GIT_SSH_COMMAND: "false", ...pin.env },
    });
    await proc.exited;
  }

  test("pinnedTo() makes git's https connect to the judged address, with the name kept for TLS", async () => {
    const l = listener();
    try {
      const target = { scheme: "https" as const, host: "pinned.invalid", port: l.port };
      await lsRemote(`https://pinned.invalid:${l.port}/acme/api.git`, pinnedTo(target, ["127.0.0.1"]));
      expect(l.seen.length).toBe(1);
      expect(l.seen[0]![0]).toBe(0x16);
      expect(new TextDecoder().decode(l.seen[0]!)).toContain("pinned.invalid"); // SNI
    } finally {
      l.stop();
    }
  });

  test("pinnedTo() makes git's ssh connect to the judged address", async () => {
    const l = listener();
    try {
      const target = { scheme: "ssh" as const, host: "pinned.invalid", port: l.port };
      const pin = pinnedTo(target, ["127.0.0.1"]);
      expect(pin.env.GIT_SSH_COMMAND).toBe(`ssh -o BatchMode=yes -o 'HostName=127.0.0.1' -o 'HostKeyAlias=[pinned.invalid]:${l.port}'`);
      await lsRemote(`ssh://git@pinned.invalid:${l.port}/acme/api.git`, pin);
      expect(l.seen.length).toBe(1);
      expect(new TextDecoder().decode(l.seen[0]!)).toStartWith("SSH-2.0-");
    } finally {
      l.stop();
    }
  });
});
