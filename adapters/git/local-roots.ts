import { realpath } from "node:fs/promises";
import { isAbsolute, resolve, sep } from "node:path";
import { CodeHostError } from "../../core/code-context/ports.ts";

/**
 * Which directories of the server's own disk a repo may be read from: under one of the roots the
 * operator named (CODE_HOST_LOCAL_ROOTS), after following every symbolic link (of the root and of
 * the path), and never inside the service's own data (DATA_DIR, GIT_CACHE_DIR: other workspaces'
 * clones, the embedded database, keys), even when a root contains it. Checked on every read, so
 * a symbolic link changed since the repo was linked is judged as it is now.
 */
export interface LocalRoots {
  /** Whether any root is configured. */
  readonly enabled: boolean;
  /** The real path of `path` when it may be read; else throws `not_allowed` (or `unreachable`: it does not exist). */
  admit(path: string): Promise<string>;
  /** Throws `not_allowed` unless the real path `real` (found from `shown`, e.g. its git directory) may be read. */
  check(real: string, shown: string): Promise<void>;
}

const under = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

async function real(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

const refuse = (why: string) => new CodeHostError("not_allowed", `Cannot read repo: ${why}`);

export function createLocalRoots(roots: readonly string[], never: readonly string[]): LocalRoots {
  /** Each root as written and as it really is (null when it does not exist now). */
  const rootsNow = () => Promise.all(roots.map(async (r) => ({ given: resolve(r), real: await real(r) })));
  /** The service's own directories: their real paths, or as written while they do not exist. */
  const neverNow = () => Promise.all(never.map(async (d) => (await real(d)) ?? resolve(d)));

  async function check(realPath: string, shown: string): Promise<void> {
    const now = await rootsNow();
    if (!now.some((r) => r.real !== null && under(realPath, r.real))) {
      throw refuse(`${shown} leads outside CODE_HOST_LOCAL_ROOTS (through a symbolic link, a .git file or borrowed objects)`);
    }
    if ((await neverNow()).some((d) => under(realPath, d))) {
      throw refuse(`${shown} is in this service's own data directory (DATA_DIR or GIT_CACHE_DIR), which is never read as a repo`);
    }
  }

  return {
    enabled: roots.length > 0,
    check,
    async admit(path) {
      if (roots.length === 0) throw refuse("this server reads no local paths (CODE_HOST_LOCAL_ROOTS is unset)");
      if (!isAbsolute(path)) throw new CodeHostError("invalid_url", `Cannot read repo: ${path} is not an absolute path`);
      // As written first: a path outside every root is refused without touching the disk, so
      // nobody learns what exists there.
      const lexical = resolve(path);
      const now = await rootsNow();
      if (!now.some((r) => under(lexical, r.given) || (r.real !== null && under(lexical, r.real)))) {
        throw refuse(`${path} is outside CODE_HOST_LOCAL_ROOTS`);
      }
      const found = await real(lexical);
      if (found === null) throw new CodeHostError("unreachable", `Cannot read repo: ${path} does not exist`);
      await check(found, path);
      return found;
    },
  };
}
