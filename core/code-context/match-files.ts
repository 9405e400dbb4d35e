import type { CodeContextDeps, KeptHead, PathMatcher, TopicHead } from "./ports.ts";
import { keptMatches } from "./kept-heads.ts";
import { compareKeptMatched, keptStale } from "./topic-head.ts";
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
  // Per path, its first topics in match order and how many match it: from the heads kept under
  // the topic version (ADR 048), else from the one query reading the heads in match order, else
  // from the reference path (whole topics without their bodies, ordered here).
  const { files, shown, truncated } = (await keptFiles(deps, matcher, ws.id, repoId, paths, limit, before)) ??
    listedFiles(
      paths,
      limit,
      (await indexedHeads(deps, matcher, ws.id, repoId, paths, before)) ??
        (await candidateHeads(deps, matcher, ws.id, repoId, paths, before)),
    );

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

/** Per path (in the request's order), its first topics in match order and how many match it. */
interface ListedFiles {
  files: Array<{ path: string; total: number; listed: Array<{ head: TopicHead; anchors: string[] }> }>;
  /** The topics listed, each once, in match order. */
  shown: TopicHead[];
  truncated: boolean;
}

function listedFiles(paths: readonly string[], limit: number, found: HeadsByPath): ListedFiles {
  const listedHeads = new Set<TopicHead>();
  const files = paths.map((path, i) => {
    const all = found.byPath[i]!;
    const listed = all.slice(0, limit);
    for (const m of listed) listedHeads.add(m.head);
    return { path, total: all.length, listed };
  });
  return { files, shown: found.ordered.filter((h) => listedHeads.has(h)), truncated: found.truncated };
}

/** On the heads kept under the topic version: each path's matches are kept in match order. */
async function keptFiles(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  limit: number,
  before: string,
): Promise<ListedFiles | null> {
  const kept = await keptMatches(deps, matcher, workspaceId, repoId, paths);
  if (!kept) return null;
  // Each listed topic's head made once per request (its `stale` depends on the clock).
  const heads = new Map<KeptHead, TopicHead>();
  const files = paths.map((path, i) => {
    const all = kept.byPath[i]!;
    const listed = all.slice(0, limit).map(({ head, anchors }) => {
      let shown = heads.get(head);
      if (!shown) heads.set(head, shown = { at: heads.size, ...head, stale: keptStale(head, before) });
      return { head: shown, anchors };
    });
    return { path, total: all.length, listed };
  });
  const shown = [...heads.keys()].sort(compareKeptMatched).map((h) => heads.get(h)!);
  return { files, shown, truncated: false };
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
