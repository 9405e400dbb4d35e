import { createHash, randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { type CodeHost, CodeHostError } from "../../core/code-context/ports.ts";
import type { Repo } from "../../core/workspaces/model.ts";

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
 * - Local paths and `file://` URLs read the server's own disk: allowed only with
 *   `allowLocalPaths` (the embedded default, and tests); off for a shared multi-tenant server.
 * - A repo without `clone_url` on a hosted provider is read from its public address
 *   (`https://github.com/<full_name>.git`, GitLab, Bitbucket).
 */
export interface GitCodeHostOptions {
  /** Where bare clones of remote repos are kept (created when missing). */
  cacheDir: string;
  /** Whether absolute local paths and `file://` URLs may be read. */
  allowLocalPaths: boolean;
  /** Bound of a clone or fetch (default 120 s). */
  networkTimeoutMs?: number;
  /** Bound of a local git call: rev-parse, ls-tree (default 30 s). */
  localTimeoutMs?: number;
  /** The git executable (default `git` on PATH). */
  git?: string;
}

const BRANCH = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/;
const REMOTE = /^(?:https:\/\/|ssh:\/\/|git@[^\s:/]+:)\S+$/;
const HOSTED: Record<string, string> = { github: "https://github.com", gitlab: "https://gitlab.com", bitbucket: "https://bitbucket.org" };
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** Options put before every command: no filesystem monitor or hooks from a repo's own config. */
const SAFE = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never"];

interface Result {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

/** Credentials in a URL never reach a message. */
const redact = (text: string) => text.replace(/(\w+:\/\/)[^/@\s]+@/g, "$1***@");

export function createGitCodeHost(opts: GitCodeHostOptions): CodeHost {
  const git = opts.git ?? "git";
  const networkMs = opts.networkTimeoutMs ?? 120_000;
  const localMs = opts.localTimeoutMs ?? 30_000;
  const protocols = opts.allowLocalPaths ? "https:ssh:file" : "https:ssh";
  /** One clone/fetch at a time per cache directory. */
  const locks = new Map<string, Promise<unknown>>();

  async function run(args: string[], timeoutMs: number): Promise<Result> {
    let proc: ReturnType<typeof spawnGit>;
    try {
      proc = spawnGit([git, ...SAFE, ...args], protocols);
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
          new CodeHostError("timeout", `git ${args[0] === "-C" ? args[2] : args[0]} took longer than ${Math.round(timeoutMs / 1000)} s`),
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

  async function checked(args: string[], timeoutMs: number, failure: "unreachable" | "no_branch", what: string): Promise<Uint8Array> {
    const r = await run(args, timeoutMs);
    if (r.code !== 0) {
      const detail = redact(r.stderr.trim().split("\n").filter(Boolean).at(-1) ?? `exit code ${r.code}`).slice(0, 300);
      throw new CodeHostError(failure, `${what}: ${detail}`);
    }
    return r.stdout;
  }

  async function list(gitDir: string, branch: string): Promise<{ commit: string; files: string[] }> {
    const head = await run(["-C", gitDir, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`], localMs);
    if (head.code !== 0) {
      // `--quiet`: a missing branch says nothing; anything on stderr is a repo that cannot be read.
      const detail = head.stderr.trim().split("\n").filter(Boolean).at(-1);
      if (detail) throw new CodeHostError("unreachable", `Cannot read repo: ${redact(detail).slice(0, 300)}`);
      throw new CodeHostError("no_branch", `Cannot read repo: it has no branch ${branch}`);
    }
    const commit = new TextDecoder().decode(head.stdout).trim();
    const out = await checked(
      ["-C", gitDir, "ls-tree", "-r", "-z", "--full-tree", "--name-only", commit],
      localMs,
      "unreachable",
      "Cannot list files",
    );
    const files = new TextDecoder().decode(out).split("\0").filter((f) => f !== "");
    return { commit, files };
  }

  async function cloneOrFetch(url: string, branch: string): Promise<string> {
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
      const url = repo.clone_url ?? (HOSTED[repo.provider] ? `${HOSTED[repo.provider]}/${repo.full_name}.git` : null);
      if (!url) throw new CodeHostError("invalid_url", "Cannot read repo: it has no clone_url");
      if (url.startsWith("/")) {
        if (!opts.allowLocalPaths) throw new CodeHostError("not_allowed", "Cannot read repo: this server does not read local paths");
        return list(url, branch);
      }
      if (url.startsWith("file:///")) {
        if (!opts.allowLocalPaths) throw new CodeHostError("not_allowed", "Cannot read repo: this server does not read file:// URLs");
        return list(await cloneOrFetch(url, branch), branch);
      }
      if (!REMOTE.test(url)) {
        throw new CodeHostError(
          "invalid_url",
          "Cannot read repo: clone_url must be https://, ssh://, git@host:path, file:/// or an absolute path",
        );
      }
      return list(await cloneOrFetch(url, branch), branch);
    },
  };
}

function spawnGit(cmd: string[], protocols: string) {
  return Bun.spawn(cmd, {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...process.env,
      GIT_TERMINAL_PROMPT: "0",
      GIT_ASKPASS: "true",
      SSH_ASKPASS: "true",
      GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
      GIT_ALLOW_PROTOCOL: protocols,
      LC_ALL: "C",
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
