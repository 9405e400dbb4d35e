import type { CodeContextDeps, PathMatcher, TopicHead } from "./ports.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { matchCandidates, matchIndexed, normalizePath, requireMatcher } from "./anchor-match.ts";
import { staleBefore, trustOf } from "../topics/mod.ts";
import { LIMIT_PER_FILE, type MatchFilesDto, type MatchFilesFullResult, type MatchFilesResult } from "./dto.ts";
import { compareMatched, topicHead } from "./match-order.ts";

export { compareMatched } from "./match-order.ts";

/**
 * The topics whose anchors match each file (`POST /topics/match-files`). Archived topics never
 * match. Each file lists its first `limit_per_file` topics in match order and counts them all
 * (`total`); `view` says whether each topic's head is repeated per file or sent once (ADR 038).
 */
export function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto & { view?: "full" }): Promise<MatchFilesFullResult>;
export function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto): Promise<MatchFilesResult>;
export async function matchFiles(deps: CodeContextDeps, ws: Workspace, dto: MatchFilesDto): Promise<MatchFilesResult> {
  const matcher = requireMatcher(deps, "match files");
  if (dto.repo_id) await checkRefs(deps, ws, { repo_id: dto.repo_id });
  const paths = [...new Set(dto.paths.map(normalizePath))].filter((p) => p !== "");
  const limit = dto.limit_per_file ?? LIMIT_PER_FILE.default;
  const repoId = dto.repo_id ?? null;
  const before = staleBefore(ws.settings.review_interval_days, deps.clock.now());
  // Per path, its topics in match order: the one query reads only the heads, already in match
  // order; the reference path reads whole topics (without their bodies) and orders them here.
  const { ordered, byPath, truncated } = (await indexedHeads(deps, matcher, ws.id, repoId, paths, before)) ??
    (await candidateHeads(deps, matcher, ws.id, repoId, paths, before));

  const listedHeads = new Set<TopicHead>();
  const files = paths.map((path, i) => {
    const all = byPath[i]!;
    const listed = all.slice(0, limit);
    for (const m of listed) listedHeads.add(m.head);
    return { path, total: all.length, listed };
  });
  const shown = ordered.filter((h) => listedHeads.has(h));

  if (dto.view === "compact") {
    return {
      view: "compact",
      topics: shown.map(shownHead),
      files: files.map(({ path, total, listed }) => ({
        path,
        total,
        matches: listed.map(({ head, anchors }) => ({ id: head.id, matched_anchors: anchors })),
      })),
      truncated,
    };
  }
  // Each listed topic's head built once, however many of the files it matches.
  const heads = new Map(shown.map((h) => [h, shownHead(h)]));
  return {
    view: "full",
    files: files.map(({ path, total, listed }) => ({
      path,
      total,
      topics: listed.map(({ head, anchors }) => ({ ...heads.get(head)!, matched_anchors: anchors })),
    })),
    truncated,
  };
}

/** Per path, the matching topics' heads in match order. */
interface HeadsByPath {
  /** Every matched topic, in match order. */
  ordered: TopicHead[];
  /** Per path (in the request's order), its matches in match order. */
  byPath: Array<Array<{ head: TopicHead; anchors: string[] }>>;
  truncated: boolean;
}

/** On the cached index: each path's matches ranked by the heads' order, which the store read. */
async function indexedHeads(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  before: string,
): Promise<HeadsByPath | null> {
  const found = await matchIndexed(
    deps,
    matcher,
    workspaceId,
    repoId,
    paths,
    (ids) => deps.stores.anchorIndex.heads(workspaceId, ids, before),
  );
  if (!found) return null;
  // The heads came in match order, and each path's matches in theirs.
  const byPath = found.byPath.map((matches) => matches.map(({ topic, anchors }) => ({ head: topic, anchors })));
  return { ordered: found.topics, byPath, truncated: false };
}

/** The reference path's answer (anchor-match.ts), as heads in match order. */
async function candidateHeads(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  before: string,
): Promise<HeadsByPath> {
  const m = await matchCandidates(deps, matcher, workspaceId, repoId, paths, { bodyChars: 0 });
  const at = new Map(paths.map((p, i) => [p, i]));
  const byPath: HeadsByPath["byPath"] = paths.map(() => []);
  const ordered: TopicHead[] = [];
  for (const t of m.topics.filter((x) => m.hits.has(x.id)).sort(compareMatched)) {
    const head = topicHead(t, before, ordered.length);
    ordered.push(head);
    for (const [path, anchors] of m.hits.get(t.id)!) byPath[at.get(path)!]!.push({ head, anchors });
  }
  return { ordered, byPath, truncated: m.truncated };
}

function shownHead(h: TopicHead) {
  return {
    id: h.id,
    slug: h.slug,
    title: h.title,
    trust: trustOf(h.status),
    status: h.status,
    drifted: h.drifted,
    stale: h.stale,
    approved_via: h.approved_via,
  };
}
