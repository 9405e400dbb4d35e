import { type Principal } from "../access/mod.ts";
import type { CodeContextDeps } from "./ports.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { compiledPattern, matchAnchors, normalizePath, requireMatcher } from "./anchor-match.ts";
import { type Drift, type Topic, writeDrift } from "../topics/mod.ts";
import { assertCanMarkDrift } from "./policy.ts";
import { MarkDriftDto, MarkDriftResult } from "./dto.ts";

/** Evidence kept on a drifted topic: at most this many files. */
export const MAX_DRIFT_FILES = 100;
const WRITE_ATTEMPTS = 5;
const PARALLEL_WRITES = 8;

/** `POST /topics/mark-drift`: anyone who may write. */
export async function markDrift(deps: CodeContextDeps, p: Principal, ws: Workspace, dto: MarkDriftDto): Promise<MarkDriftResult> {
  assertCanMarkDrift(p);
  requireMatcher(deps, "mark drift");
  if (dto.repo_id) await checkRefs(deps, ws, { repo_id: dto.repo_id });
  return markDriftIn(deps, p, ws.id, { paths: dto.paths, commit: dto.commit ?? null, repoId: dto.repo_id ?? null });
}

/**
 * Marks every topic (of `repoId`, or of any repo when null; never archived ones) whose anchors
 * match one of `paths` as drifted, with the evidence: the commit and the matched files. A topic
 * drifted already keeps its earlier files too (newest first, at most 100) until `vouch-ack` or
 * `approve` clears the drift. Each topic is its own versioned write (`topic.drifted`), re-read and
 * retried when it changed meanwhile. `p` is null for the code-host webhook (the system acting).
 */
export async function markDriftIn(
  deps: CodeContextDeps,
  p: Principal | null,
  workspaceId: string,
  input: { paths: readonly string[]; commit: string | null; repoId: string | null },
): Promise<MarkDriftResult> {
  const matcher = requireMatcher(deps, "mark drift");
  const paths = [...new Set(input.paths.map(normalizePath))].filter((x) => x !== "");
  const { topics, hits, truncated } = await matchAnchors(deps, matcher, workspaceId, input.repoId, paths);
  const targets = topics.filter((t) => hits.has(t.id));
  const marked: Array<{ id: string; slug: string }> = [];
  const done = new Map<string, { id: string; slug: string }>();

  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const topic = targets[next++]!;
      const files = [...hits.get(topic.id)!.keys()];
      const result = await driftOne(deps, p, topic, files, input.commit);
      if (result) done.set(topic.id, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, targets.length) }, worker));
  for (const t of targets) {
    const d = done.get(t.id);
    if (d) marked.push(d);
  }
  return { marked, count: marked.length, truncated };
}

async function driftOne(
  deps: CodeContextDeps,
  p: Principal | null,
  first: Topic,
  files: string[],
  commit: string | null,
): Promise<{ id: string; slug: string } | null> {
  let topic: Topic | null = first;
  for (let attempt = 0; attempt < WRITE_ATTEMPTS && topic; attempt++) {
    if (topic.status === "archived") return null;
    const now = deps.clock.now();
    const evidence = files.slice(0, MAX_DRIFT_FILES);
    // Marked at this commit with this evidence already (a webhook delivery applied again): nothing to write.
    if (commit !== null && topic.drift?.commit === commit && evidence.every((f) => topic!.drift!.files.includes(f))) {
      return { id: topic.id, slug: topic.slug };
    }
    const drift: Drift = {
      commit,
      files: [...new Set([...evidence, ...(topic.drift?.files ?? [])])].slice(0, MAX_DRIFT_FILES),
      at: now.toISOString(),
    };
    const result = await writeDrift(deps, p, topic, drift, { commit, files: evidence });
    if (result === "ok") return { id: topic.id, slug: topic.slug };
    if (result !== "version_conflict") return null;
    // Changed meanwhile: re-read; its anchors may no longer match, so test them again.
    topic = await deps.stores.topics.get(first.workspace_id, first.id);
    if (topic && deps.paths) {
      const matcher = deps.paths;
      const still = files.filter((f) => topic!.anchors.some((a) => compiledPattern(matcher, a)?.(f) ?? false));
      if (still.length === 0) return null;
      files = still;
    }
  }
  return null;
}
