import type { ReadOptions, Topic } from "../topics/mod.ts";
import type { CodeContextDeps } from "./ports.ts";
import { AppError } from "../kernel/errors.ts";
import { anchorBase, baseCandidates } from "./anchor-base.ts";
import type { PathMatcher } from "./ports.ts";

/**
 * Which topics' anchors match which files: the lookup behind match-files and drift. The store
 * finds candidates by the literal bases of their anchors (`TopicStore.anchoredAt`, one query for
 * all the paths), and each candidate anchor is compiled once and tested only against the paths
 * below its base.
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
  /** Candidate topics, in `compareListed` order (only those with a hit matter). */
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
