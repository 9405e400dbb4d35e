import type { CoreDeps } from "../deps.ts";
import { anchorValidationFor, orphanedAnchorsFor, requestRepoIndex } from "./repo-index.ts";

/**
 * Code context's part in other modules' use cases, through the ports they declare (topics'
 * `AnchorReports`, workspaces' `RepoLinkedHook`): those modules do not import code-context, which
 * reads their topics and repos. A host that gives core a code host and a path matcher spreads
 * these into its `CoreDeps` too.
 */
export const codeContextHooks = {
  anchorReports: { validation: anchorValidationFor, orphaned: orphanedAnchorsFor },
  onRepoLinked: async (deps: CoreDeps, repo) => {
    await requestRepoIndex(deps, repo);
  },
} satisfies Required<Pick<CoreDeps, "anchorReports" | "onRepoLinked">>;
