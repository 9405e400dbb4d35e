import type { CoreDeps } from "../kernel/deps.ts";
import type { AnchorReports } from "../topics/mod.ts";
import type { RepoLinkedHook } from "../workspaces/mod.ts";
import type { CodeContextDeps } from "./ports.ts";
import { anchorValidationFor, orphanedAnchorsFor, requestRepoIndex } from "./repo-index.ts";

/**
 * Code context's part in other modules' use cases, through the ports they declare (topics'
 * `AnchorReports`, workspaces' `RepoLinkedHook`): those modules do not import code-context, which
 * reads their topics and repos. A host that gives core a code host and a path matcher spreads
 * these into its deps too.
 */
/** A hook is given the host's whole deps (ADR 066); this names what code context reads of them. */
const host = (deps: CoreDeps<unknown>) => deps as CodeContextDeps;

export const codeContextHooks = {
  anchorReports: {
    validation: (deps, ws, topic) => anchorValidationFor(host(deps), ws, topic),
    orphaned: (deps, ws, topic) => orphanedAnchorsFor(host(deps), ws, topic),
  },
  onRepoLinked: async (deps, repo) => {
    await requestRepoIndex(host(deps), repo);
  },
} satisfies { anchorReports: AnchorReports; onRepoLinked: RepoLinkedHook };
