import { compareListed, type ReadOptions, type Topic } from "../topics/mod.ts";
import type { CodeContextDeps } from "./ports.ts";
import { AppError } from "../kernel/errors.ts";
import { anchorBase, baseCandidates } from "./anchor-base.ts";
import type { PathMatcher, TopicAnchors } from "./ports.ts";
import { type AnchorIndex, anchorIndex, matchesOf } from "./anchor-index.ts";

/**
 * Which topics' anchors match which files: the lookup behind match-files, drift and retrieve.
 *
 * The fast path (ADR 038): the workspace's anchors are kept in memory by literal base under the
 * store's anchor version (anchor-index.ts); the paths are matched there, and one query reads the
 * matched topics together with the current anchor version. When the version moved, the index is
 * loaded again and the paths matched again, so an answer never comes from stale anchors.
 *
 * The reference path, when the store keeps no version, the workspace is too large to cache, or
 * more than `MAX_MATCH_CANDIDATES` topics are candidates: the store finds candidates by the
 * literal bases of their anchors (`TopicStore.anchoredAt`, one query for all the paths), and each
 * candidate anchor is compiled once and tested only against the paths below its base.
 */

/** The most candidate topics one lookup considers; beyond it the answer says `truncated`. */
export const MAX_MATCH_CANDIDATES = 5_000;
const COMPILED_PATTERNS = 10_000;

type Test = (path: string) => boolean;
const compiledByMatcher = new WeakMap<PathMatcher, Map<string, Test | null>>();

/** The matcher's predicate for `pattern`, cached per matcher; null when it cannot compile it. */
export function compiledPattern(matcher: PathMatcher, pattern: string): Test | null {
  let cache = compiledByMatcher.get(matcher);
  if (!cache) {
    cache = new Map();
    compiledByMatcher.set(matcher, cache);
  }
  let test = cache.get(pattern);
  if (test === undefined) {
    try {
      test = matcher.compile(pattern);
    } catch {
      test = null;
    }
    if (cache.size >= COMPILED_PATTERNS) cache.delete(cache.keys().next().value!);
    cache.set(pattern, test);
  }
  return test;
}

export function requireMatcher(deps: CodeContextDeps, action: string): PathMatcher {
  if (!deps.paths) throw new AppError("INTERNAL", `Cannot ${action}: no path matcher is configured (CoreDeps.paths)`);
  return deps.paths;
}

/** A repo-relative path as anchors see it: without leading `./`. */
export function normalizePath(path: string): string {
  let p = path;
  while (p.startsWith("./")) p = p.slice(2);
  return p;
}

export interface AnchorMatches {
  /** Candidate topics, in `compareListed` order (only those with a hit matter; the fast path returns only those). */
  topics: Topic[];
  /** topic id → path → the topic's anchors that match it, in the topic's order. */
  hits: Map<string, Map<string, string[]>>;
  /** More than `MAX_MATCH_CANDIDATES` topics were candidates: some were not considered. */
  truncated: boolean;
}

/** Matches `paths` against the anchors of the workspace's topics (of `repoId`, or of any repo when null). */
export async function matchAnchors(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  /** `{ bodyChars: 0 }` when the caller never reads the bodies (never for a caller that writes topics back). */
  read: ReadOptions = {},
): Promise<AnchorMatches> {
  const indexed = await matchIndexed(
    deps,
    matcher,
    workspaceId,
    repoId,
    paths,
    (ids) => deps.stores.anchorIndex.read(workspaceId, ids, read),
  );
  if (!indexed) return matchCandidates(deps, matcher, workspaceId, repoId, paths, read);
  const topics = indexed.topics.sort(compareListed);
  const hits = new Map<string, Map<string, string[]>>(topics.map((t) => [t.id, new Map()]));
  indexed.byPath.forEach((matches, i) => {
    for (const { topic, anchors } of matches) hits.get(topic.id)!.set(paths[i]!, anchors);
  });
  return { topics, hits, truncated: false };
}

/** What the cached index answers: per path its matches (of the repo asked), and the matched topics the store read. */
export interface IndexedMatches<T> {
  /** The topics `read` gave (archived ones are not among them). */
  topics: T[];
  /** Per path (in the order given), the topics of `topics` whose anchors match it, in the order of `topics`, with those anchors. */
  byPath: Array<Array<{ topic: T; anchors: string[] }>>;
}

/** How often a request matches again after the anchors changed under it, before it takes the reference path. */
const INDEX_ATTEMPTS = 3;

/**
 * The paths matched on the cached index, the matched topics read by `read` (the request's one
 * query, which also says the store's anchor version); null when the index cannot answer (see the
 * top of the file).
 */
export async function matchIndexed<T extends { id: string; at?: number }>(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  read: (topicIds: string[]) => Promise<{ version: string; topics: T[] }>,
): Promise<IndexedMatches<T> | null> {
  const store = deps.stores.anchorIndex;
  let stale: string | undefined;
  for (let attempt = 0; attempt < INDEX_ATTEMPTS; attempt++) {
    const index = await anchorIndex(store, deps.clock, matcher, workspaceId, stale);
    if (!index) return null;
    // Which candidates the reference path would consider depends on their list order, which only
    // the store knows: beyond the cap, it answers.
    if (candidatesOver(index, paths, repoId, MAX_MATCH_CANDIDATES)) return null;
    const matched = new Set<TopicAnchors>();
    const byPath = paths.map((path) => {
      const all = matchesOf(index, path);
      const mine = repoId === null ? all : all.filter((m) => m.topic.repo_id === repoId);
      for (const m of mine) matched.add(m.topic);
      return mine;
    });
    const asked = [...matched];
    const { version, topics } = await read(asked.map((t) => t.id));
    if (version === index.version) {
      // Joined on the index's own objects, by the position a topic was asked at when the store
      // says it (a lookup by a fresh id string costs about a microsecond: its hash is computed).
      const position = new Map<TopicAnchors, number>();
      topics.forEach((t, i) => position.set(t.at === undefined ? index.topics.get(t.id)! : asked[t.at]!, i));
      return {
        topics,
        byPath: byPath.map((matches) => {
          const found: Array<{ at: number; anchors: string[] }> = [];
          for (const m of matches) {
            const at = position.get(m.topic);
            if (at !== undefined) found.push({ at, anchors: m.anchors }); // not read: archived
          }
          return found.sort((a, b) => a.at - b.at).map(({ at, anchors }) => ({ topic: topics[at]!, anchors }));
        }),
      };
    }
    stale = index.version;
  }
  return null;
}

/**
 * Whether more than `cap` topics (of `repoId`) have an anchor based on an ancestor of a path: what
 * the reference path reads. Counted exactly only when the anchors at those bases exceed the cap.
 */
export function candidatesOver(index: AnchorIndex, paths: readonly string[], repoId: string | null, cap: number): boolean {
  const bases = new Set<string>();
  let bound = 0;
  for (const path of paths) {
    for (const base of baseCandidates(path)) {
      if (bases.has(base)) continue;
      bases.add(base);
      bound += index.anchorsAt.get(base) ?? 0;
    }
  }
  if (bound <= cap) return false;
  const candidates = new Set<string>();
  for (const base of bases) {
    for (const p of index.byBase.get(base) ?? []) {
      for (const t of p.topics) if (repoId === null || t.repo_id === repoId) candidates.add(t.id);
    }
  }
  return candidates.size > cap;
}

/** `matchAnchors` on the candidates the store finds by base: the reference path. */
export async function matchCandidates(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  read: ReadOptions,
): Promise<AnchorMatches> {
  const bases = new Set<string>();
  for (const p of paths) for (const b of baseCandidates(p)) bases.add(b);
  const found = await deps.stores.topics.anchoredAt(workspaceId, repoId, [...bases], MAX_MATCH_CANDIDATES + 1, read);
  const truncated = found.length > MAX_MATCH_CANDIDATES;
  const topics = found.slice(0, MAX_MATCH_CANDIDATES);

  const byBase = new Map<string, Array<{ topic: Topic; pattern: string; test: Test }>>();
  for (const topic of topics) {
    for (const pattern of topic.anchors) {
      const test = compiledPattern(matcher, pattern);
      if (!test) continue;
      const base = anchorBase(pattern);
      const list = byBase.get(base) ?? [];
      list.push({ topic, pattern, test });
      byBase.set(base, list);
    }
  }

  const hits = new Map<string, Map<string, string[]>>();
  for (const path of paths) {
    for (const base of baseCandidates(path)) {
      for (const { topic, pattern, test } of byBase.get(base) ?? []) {
        if (!test(path)) continue;
        let mine = hits.get(topic.id);
        if (!mine) hits.set(topic.id, mine = new Map());
        const anchors = mine.get(path) ?? [];
        anchors.push(pattern);
        mine.set(path, anchors);
      }
    }
  }
  // Anchors in the topic's own order, whatever order the bases were visited in.
  for (const topic of topics) {
    const mine = hits.get(topic.id);
    if (mine) { for (const [path, anchors] of mine) mine.set(path, topic.anchors.filter((a) => anchors.includes(a))); }
  }
  return { topics, hits, truncated };
}
