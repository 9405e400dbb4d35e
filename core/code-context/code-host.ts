import type { Repo } from "../workspaces/model.ts";

/**
 * The code-host port: what core needs to know about a linked repository's code. Today one
 * adapter reads repositories with the `git` command line (adapters/git/); a hosted provider's API
 * (GitHub, GitLab) can implement the same port later without core changing.
 */
export interface CodeHost {
  /**
   * The files of `repo`'s default branch (`repo.default_branch`) at its newest commit: repo-relative
   * paths with `/` separators, sorted. Throws a `CodeHostError` when the repo cannot be read.
   */
  listFiles(repo: Repo): Promise<{ commit: string; files: string[] }>;
}

/** Why a code host could not read a repo. */
export const CODE_HOST_FAILURES = ["invalid_url", "not_allowed", "unreachable", "no_branch", "timeout", "too_large"] as const;
export type CodeHostFailure = (typeof CODE_HOST_FAILURES)[number];

/** The typed error a `CodeHost` throws; `message` is safe to show to the workspace (no credentials). */
export class CodeHostError extends Error {
  readonly reason: CodeHostFailure;
  constructor(reason: CodeHostFailure, message: string) {
    super(message);
    this.name = "CodeHostError";
    this.reason = reason;
  }
}

export function isCodeHostError(e: unknown): e is CodeHostError {
  return e instanceof CodeHostError;
}
