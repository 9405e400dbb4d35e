import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, realpath, rename, rm, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { type CodeHost, CodeHostError } from "../../core/code-context/ports.ts";
import { checkOutboundHost } from "../../core/outbound/outbound-host.ts";
import type { HostResolver } from "../../core/outbound/ports.ts";
import type { Repo } from "../../core/workspaces/model.ts";
import { createLocalRoots } from "./local-roots.ts";
import { pinnedTo, remoteTarget } from "./remote-target.ts";

/**
 * The `CodeHost` port over the `git` command line (Bun runs it).
 *
 * - An absolute local path (`/srv/git/api`) is read in place: `git -C <path> rev-parse` of the
 *   default branch, then `ls-tree -r` of that commit. Nothing is written there.
 * - A URL (`https://`, `ssh://`, `git@host:path`, `file:///`) is kept as a bare partial clone in
 *   `cacheDir` (`clone --bare --filter=blob:none --single-branch`: trees, no file contents), fetched
 *   again on each refresh, then listed with `ls-tree`.
 * - Every git call is bounded in time; arguments go as an array (no shell); a URL or branch that
 *   could be read as an option is refused; only the https and ssh transports are allowed (and
 *   `file` where local repos are), so `ext::` and friends never run.
 * - Local paths and `file://` URLs read the server's own disk: only under `localRoots`
 *   (CODE_HOST_LOCAL_ROOTS), symbolic links followed, never in `dataDir` or `cacheDir`
 *   (local-roots.ts); the repository git finds there (its common git directory, its alternates)
 *   must be under them too.
 * - A remote host must resolve to public addresses only (core/outbound/), unless `allowPrivate`;
 *   git then connects to the addresses judged, not to what a second lookup says (remote-target.ts).
 * - The same checks run when a repo is linked (`refusal`) and on every read, so a repo allowed
 *   once is refused later if the roots, a symbolic link or the host's addresses change.
 * - A repo without `clone_url` on a hosted provider is read from its public address
 *   (`https://github.com/<full_name>.git`, GitLab, Bitbucket).
 */
export interface GitCodeHostOptions {
  /** Where bare clones of remote repos are kept (created when missing). Never read as a local repo. */
  cacheDir: string;
  /** Absolute directories local paths and `file://` URLs may be read under (CODE_HOST_LOCAL_ROOTS); empty: none. */
  localRoots: readonly string[];
  /** The service's data directory (DATA_DIR), never read as a local repo; the cache directory never is either. */
  dataDir?: string;
  /** CODE_HOST_ALLOW_PRIVATE: remote hosts on private, loopback or other non-public addresses may be read (nothing is resolved here then). */
  allowPrivate: boolean;
  /** How remote host names become addresses (adapters/dns/system-resolver.ts; tests give a table). */
  resolver: HostResolver;
  /** Bound of a clone or fetch (default 120 s). */
  networkTimeoutMs?: number;
  /** Bound of a local git call: rev-parse, ls-tree (default 30 s). */
  localTimeoutMs?: number;
  /** The git executable (default `git` on PATH). */
  git?: string;
}

const BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/;
const REMOTE = /^(?:https:\/\/|ssh:\/\/|git@[^\s:/]+:)\S+$/;
/** Variables that would make git read another repository than the one named (inherited from whoever started the server). */
const REPO_LOCATION = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
];
const HOSTED: Record<string, string> = { github: "https://github.com", gitlab: "https://gitlab.com", bitbucket: "https://bitbucket.org" };
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** Options put before every command: no filesystem monitor or hooks from a repo's own config. */
const SAFE = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never"];

interface Result {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

/** What one git call adds: `-c` options before the command, environment over the defaults. */
interface Extra {
  config?: string[];
  env?: Record<string, string>;
}

/** Where a repo is read from, once every check passed. */
type Source =
  | { kind: "local"; gitDir: string }
  | { kind: "file"; gitDir: string }
  | { kind: "remote"; url: string; pin: Extra };

/** Credentials in a URL never reach a message. */
const redact = (text: string) => text.replace(/(\w+:\/\/)[^/@\s]+@/g, "$1***@");

export function createGitCodeHost(opts: GitCodeHostOptions): CodeHost {
  const git = opts.git ?? "git";
  const networkMs = opts.networkTimeoutMs ?? 120_000;
  const localMs = opts.localTimeoutMs ?? 30_000;
  const roots = createLocalRoots(opts.localRoots, [opts.cacheDir, ...(opts.dataDir ? [opts.dataDir] : [])]);
  const protocols = narrowed(roots.enabled ? "https:ssh:file" : "https:ssh", process.env.GIT_ALLOW_PROTOCOL);
  /** One clone/fetch at a time per cache directory. */
  const locks = new Map<string, Promise<unknown>>();

  async function run(args: string[], timeoutMs: number, extra: Extra = {}): Promise<Result> {
    let proc: ReturnType<typeof spawnGit>;
    try {
      proc = spawnGit([git, ...SAFE, ...(extra.config ?? []), ...args], protocols, extra.env ?? {});
    } catch (e) {
      throw new CodeHostError("unreachable", `Cannot run git: ${e instanceof Error ? e.message : String(e)}`);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Killing git may leave a helper it started (ssh, git-remote-https) holding the pipes: the
    // answer does not wait for them.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        proc.kill("SIGKILL");
        reject(
          new CodeHostError("timeout", `git ${commandOf(args)} took longer than ${Math.round(timeoutMs / 1000)} s`),
        );
      }, timeoutMs);
    });
    const done = Promise.all([readAll(proc.stdout, () => proc.kill("SIGKILL")), new Response(proc.stderr).text(), proc.exited]);
    done.catch(() => {});
    try {
      const [stdout, stderr, code] = await Promise.race([done, timeout]);
      return { code, stdout, stderr };
    } finally {
      clearTimeout(timer);
    }
  }

  async function checked(
    args: string[],
    timeoutMs: number,
    failure: "unreachable" | "no_branch",
    what: string,
    extra?: Extra,
  ): Promise<Uint8Array> {
    const r = await run(args, timeoutMs, extra);
    if (r.code !== 0) {
      const detail = redact(r.stderr.trim().split("\n").filter(Boolean).at(-1) ?? `exit code ${r.code}`).slice(0, 300);
      throw new CodeHostError(failure, `${what}: ${detail}`);
    }
    return r.stdout;
  }

  async function list(gitDir: string, branch: string): Promise<{ commit: string; files: string[] }> {
    const head = await run([`--git-dir=${gitDir}`, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`], localMs);
    if (head.code !== 0) {
      // `--quiet`: a missing branch says nothing; anything on stderr is a repo that cannot be read.
      const detail = head.stderr.trim().split("\n").filter(Boolean).at(-1);
      if (detail) throw new CodeHostError("unreachable", `Cannot read repo: ${redact(detail).slice(0, 300)}`);
      throw new CodeHostError("no_branch", `Cannot read repo: it has no branch ${branch}`);
    }
    const commit = new TextDecoder().decode(head.stdout).trim();
    const out = await checked(
      [`--git-dir=${gitDir}`, "ls-tree", "-r", "-z", "--full-tree", "--name-only", commit],
      localMs,
      "unreachable",
      "Cannot list files",
    );
    const files = new TextDecoder().decode(out).split("\0").filter((f) => f !== "");
    return { commit, files };
  }

  /**
   * The repository git would read at a local path: its real common git directory (a worktree's or
   * a `.git` file's leads elsewhere), found without looking above the path, and checked against
   * the roots with its alternates (object directories it borrows from).
   */
  async function localGitDir(path: string): Promise<string> {
    const found = await roots.admit(path);
    const r = await run(["-C", found, "rev-parse", "--path-format=absolute", "--git-common-dir"], localMs, {
      env: { GIT_CEILING_DIRECTORIES: dirname(found) },
    });
    const reported = new TextDecoder().decode(r.stdout).trim();
    if (r.code !== 0 || !reported) throw new CodeHostError("unreachable", `Cannot read repo: ${path} is not a git repository`);
    const gitDir = await realpath(reported);
    await roots.check(gitDir, path);
    for (const alternate of await alternates(gitDir)) {
      const real = await realpath(alternate).catch(() => null);
      if (real) await roots.check(real, `${path} (an object directory it borrows)`);
    }
    return gitDir;
  }

  /**
   * Checks a repo's source and says where to read it from; throws a `CodeHostError` when it may
   * not be read. `reading`: git is about to run, so a transport it may not use is refused before
   * any name is resolved.
   */
  async function sourceOf(repo: Pick<Repo, "provider" | "full_name" | "clone_url">, reading: boolean): Promise<Source> {
    const url = repo.clone_url ?? (HOSTED[repo.provider] ? `${HOSTED[repo.provider]}/${repo.full_name}.git` : null);
    if (!url) throw new CodeHostError("invalid_url", "Cannot read repo: it has no clone_url");
    if (url.startsWith("/")) return { kind: "local", gitDir: await localGitDir(url) };
    if (url.startsWith("file:///")) {
      let path: string;
      try {
        path = decodeURIComponent(new URL(url).pathname);
      } catch {
        throw new CodeHostError("invalid_url", "Cannot read repo: invalid file:// URL");
      }
      return { kind: "file", gitDir: await localGitDir(path) };
    }
    const target = REMOTE.test(url) ? remoteTarget(url) : null;
    if (!target) {
      throw new CodeHostError(
        "invalid_url",
        "Cannot read repo: clone_url must be https://, ssh://, git@host:path, file:/// or an absolute path",
      );
    }
    if (reading && !protocols.split(":").includes(target.scheme)) {
      throw new CodeHostError("not_allowed", `Cannot read repo: this server's git may not use ${target.scheme} (GIT_ALLOW_PROTOCOL)`);
    }
    // Private networks allowed: nothing to judge, and git resolves the name as it always did
    // (through a proxy, say, that alone knows the name).
    if (opts.allowPrivate) return { kind: "remote", url, pin: {} };
    const verdict = await checkOutboundHost(target.host, opts.resolver);
    if (!verdict.ok) {
      if (verdict.refusal === "unresolved") throw new CodeHostError("unreachable", `Cannot read repo: ${verdict.message}`);
      throw new CodeHostError(
        verdict.refusal === "invalid_host" ? "invalid_url" : "not_allowed",
        `Cannot read repo: ${verdict.message}; this server reads repos on public addresses only (CODE_HOST_ALLOW_PRIVATE=true allows a git server on a private network)`,
      );
    }
    return { kind: "remote", url, pin: verdict.literal ? {} : pinnedTo(target, verdict.addresses) };
  }

  async function cloneOrFetch(url: string, branch: string, pin: Extra = {}): Promise<string> {
    const dir = join(opts.cacheDir, `${createHash("sha256").update(`${url}\n${branch}`).digest("hex").slice(0, 32)}.git`);
    const previous = locks.get(dir) ?? Promise.resolve();
    const mine = previous.catch(() => {}).then(async () => {
      if (await exists(dir)) {
        await checked(
          [
            "-C",
            dir,
            "fetch",
            "--quiet",
            "--no-tags",
            "--prune",
            "--filter=blob:none",
            "origin",
            `+refs/heads/${branch}:refs/heads/${branch}`,
          ],
          networkMs,
          "unreachable",
          "Cannot fetch repo",
          pin,
        );
        return;
      }
      await mkdir(opts.cacheDir, { recursive: true });
      const tmp = `${dir}.tmp-${randomUUID()}`;
      try {
        await checked(
          ["clone", "--quiet", "--bare", "--filter=blob:none", "--single-branch", "--no-tags", "--branch", branch, "--", url, tmp],
          networkMs,
          "unreachable",
          "Cannot clone repo",
          pin,
        );
        await rename(tmp, dir);
      } finally {
        await rm(tmp, { recursive: true, force: true });
      }
    });
    locks.set(dir, mine);
    try {
      await mine;
    } finally {
      if (locks.get(dir) === mine) locks.delete(dir);
    }
    return dir;
  }

  return {
    async listFiles(repo: Repo) {
      const branch = repo.default_branch;
      if (!BRANCH.test(branch)) throw new CodeHostError("invalid_url", `Cannot read repo: invalid branch name ${JSON.stringify(branch)}`);
      const source = await sourceOf(repo, true);
      if (source.kind === "local") return list(source.gitDir, branch);
      // A file:// repo is cloned from the directory that was checked (a symbolic link changed
      // later leads to another clone, checked in its turn).
      if (source.kind === "file") return list(await cloneOrFetch(`file://${encodeURI(source.gitDir)}`, branch), branch);
      return list(await cloneOrFetch(source.url, branch, source.pin), branch);
    },
    async refusal(repo) {
      // A repo with no source at all (provider `git`, no clone_url) is linked as before: there
      // is nothing to read, so nothing to refuse; its index says so.
      if (!repo.clone_url && !HOSTED[repo.provider]) return null;
      try {
        await sourceOf(repo, false);
        return null;
      } catch (e) {
        // What may never be read is refused; what cannot be read now (a name that does not
        // resolve, a path that does not exist yet) is the index's failure to report, not the link's.
        if (e instanceof CodeHostError && (e.reason === "not_allowed" || e.reason === "invalid_url")) return e.message;
        if (e instanceof CodeHostError) return null;
        throw e;
      }
    },
  };
}

/** The git command of `args` (`fetch`, `ls-tree`), past its options: names no path. */
function commandOf(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-C") i++;
    else if (!args[i]!.startsWith("-")) return args[i]!;
  }
  return "";
}

/** The transports allowed: ours, narrowed by a GIT_ALLOW_PROTOCOL the server was started with. */
function narrowed(ours: string, inherited: string | undefined): string {
  if (!inherited) return ours;
  const allowed = new Set(inherited.split(":"));
  return ours.split(":").filter((p) => allowed.has(p)).join(":");
}

/** The object directories a repository borrows from (`objects/info/alternates`), absolute. */
async function alternates(gitDir: string): Promise<string[]> {
  const objects = join(gitDir, "objects");
  const text = await readFile(join(objects, "info", "alternates"), "utf8").catch(() => "");
  return text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).map((l) => (isAbsolute(l) ? l : resolve(objects, l)));
}

function spawnGit(cmd: string[], protocols: string, extra: Record<string, string>) {
  const inherited = { ...process.env };
  for (const name of REPO_LOCATION) delete inherited[name];
  return Bun.spawn(cmd, {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...inherited,
      GIT_TERMINAL_PROMPT: "0",
      GIT_ASKPASS: "true",
      SSH_ASKPASS: "true",
      GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
      GIT_ALLOW_PROTOCOL: protocols,
      LC_ALL: "C",
      ...extra,
    },
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function readAll(stream: ReadableStream<Uint8Array>, tooLarge: () => void): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_OUTPUT_BYTES) {
      tooLarge();
      throw new CodeHostError("too_large", "Cannot list files: git's output is too large");
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
