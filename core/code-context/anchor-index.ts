import type { AnchorIndexStore, PathMatcher, TopicAnchors } from "./ports.ts";
import { anchorBase, baseCandidates } from "./anchor-base.ts";
import type { Clock } from "../kernel/clock.ts";

/**
 * A workspace's anchors, grouped by literal base, kept between requests under the store's anchor
 * version (ADR 038): loaded once per change of the anchors, grouped by literal base and pattern,
 * each pattern compiled the first time a path under its base is tested, and each path's matches
 * kept once found (`matchesOf`). The version is read again with every request's one query, so
 * an index that a write made stale is never answered from: it is dropped and loaded again.
 *
 * One cache per store object (a server's, a test's), bounded by the anchors it holds: a workspace
 * with more than `MAX_CACHED_ANCHORS` anchors is not cached (its requests take the uncached path).
 */
export const MAX_CACHED_ANCHORS = 500_000;

type Test = (path: string) => boolean;

/** One distinct pattern of a base, tested once per path however many topics hold it. */
export interface IndexedPattern {
  pattern: string;
  /** Compiled on first use; null when the matcher cannot compile the pattern. */
  test: Test | null | undefined;
  /** The topics with this anchor (a topic listing it twice is here twice). */
  topics: TopicAnchors[];
}

/** A topic whose anchors match a path, with those anchors in the topic's own order. */
export interface PathMatch {
  topic: TopicAnchors;
  anchors: string[];
}

/**
 * The matches of a path kept per index (so per anchor version: they go with it), bounded: at most
 * `MAX_MEMO_PATHS` paths and `memoBound(index)` matches, the oldest paths dropped first. An agent
 * asks about the same files again and again; each later ask is then a lookup. The bound follows
 * the index's size, so the memos of a process stay within a small multiple of the anchors its
 * cache holds (`MAX_CACHED_ANCHORS`).
 */
export const MAX_MEMO_PATHS = 20_000;
const memoBound = (index: AnchorIndex) => Math.min(200_000, 2 * index.size + 1_000);

export interface AnchorIndex {
  version: string;
  matcher: PathMatcher;
  /** literal base → its distinct patterns. */
  byBase: Map<string, IndexedPattern[]>;
  /** literal base → how many anchors have it: an upper bound of the candidate topics it brings. */
  anchorsAt: Map<string, number>;
  /** topic id → its repo and anchors (in the topic's order). */
  topics: Map<string, TopicAnchors>;
  size: number;
  /** path → the topics (of any repo) whose anchors match it: see `MAX_MEMO_PATHS`. */
  memo: Map<string, PathMatch[]>;
  memoMatches: number;
}

interface Slot {
  /** The index, or its load in flight (shared by the requests that need it meanwhile); null: not cacheable. */
  index: Promise<AnchorIndex | null>;
  size: number;
  /** Until when a null (not cacheable) answer stands before the store is asked again. */
  until: number;
}

/** How long a workspace found too large (or a store without versions) is not asked again. */
const UNCACHEABLE_MS = 5 * 60_000;

const caches = new WeakMap<AnchorIndexStore, Map<string, Slot>>();

/** The pattern's predicate, compiled on first use. */
export function testOf(index: AnchorIndex, p: IndexedPattern): Test | null {
  if (p.test === undefined) {
    try {
      p.test = index.matcher.compile(p.pattern);
    } catch {
      p.test = null;
    }
  }
  return p.test;
}

/** The topics (of any repo) whose anchors match `path`: each distinct pattern under its ancestors tested once. */
export function matchesOf(index: AnchorIndex, path: string): PathMatch[] {
  const known = index.memo.get(path);
  if (known) return known;
  const found = new Map<TopicAnchors, string[]>();
  for (const base of baseCandidates(path)) {
    for (const p of index.byBase.get(base) ?? []) {
      if (!testOf(index, p)?.(path)) continue;
      for (const t of p.topics) {
        const anchors = found.get(t);
        if (anchors) anchors.push(p.pattern);
        else found.set(t, [p.pattern]);
      }
    }
  }
  const matches: PathMatch[] = [];
  for (const [topic, anchors] of found) {
    // In the topic's own order, whatever order the bases were visited in.
    matches.push({ topic, anchors: anchors.length === 1 ? anchors : topic.anchors.filter((a) => anchors.includes(a)) });
  }
  remember(index, path, matches);
  return matches;
}

function remember(index: AnchorIndex, path: string, matches: PathMatch[]): void {
  index.memo.set(path, matches);
  index.memoMatches += matches.length;
  for (const [oldest, dropped] of index.memo) {
    if (index.memo.size <= MAX_MEMO_PATHS && index.memoMatches <= memoBound(index)) break;
    index.memo.delete(oldest);
    index.memoMatches -= dropped.length;
  }
}

export function buildIndex(version: string, matcher: PathMatcher, topics: readonly TopicAnchors[]): AnchorIndex {
  const patterns = new Map<string, IndexedPattern>();
  const byBase = new Map<string, IndexedPattern[]>();
  const anchorsAt = new Map<string, number>();
  const byId = new Map<string, TopicAnchors>();
  let size = 0;
  for (const t of topics) {
    byId.set(t.id, t);
    for (const pattern of t.anchors) {
      size++;
      const known = patterns.get(pattern);
      const base = anchorBase(pattern);
      anchorsAt.set(base, (anchorsAt.get(base) ?? 0) + 1);
      if (known) {
        known.topics.push(t);
        continue;
      }
      const entry: IndexedPattern = { pattern, test: undefined, topics: [t] };
      patterns.set(pattern, entry);
      const list = byBase.get(base);
      if (list) list.push(entry);
      else byBase.set(base, [entry]);
    }
  }
  return { version, matcher, byBase, anchorsAt, topics: byId, size, memo: new Map(), memoMatches: 0 };
}

/**
 * The workspace's cached index (loaded when there is none), or null when the store keeps no
 * anchor version or the workspace has too many anchors to cache. `stale`: a version the caller
 * saw superseded; an index at it is dropped and loaded again. `clock` times how long a "not
 * cacheable" answer stands.
 */
export async function anchorIndex(
  store: AnchorIndexStore,
  clock: Clock,
  matcher: PathMatcher,
  workspaceId: string,
  stale?: string,
): Promise<AnchorIndex | null> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, cache = new Map());
  for (let slot = cache.get(workspaceId); slot; slot = cache.get(workspaceId)) {
    const index = await slot.index;
    if (cache.get(workspaceId) !== slot) continue; // replaced meanwhile: look again
    if (index === null ? clock.now().getTime() < slot.until : index.matcher === matcher && index.version !== stale) {
      // Most recently used last: eviction takes the first.
      cache.delete(workspaceId);
      cache.set(workspaceId, slot);
      return index;
    }
    cache.delete(workspaceId);
  }
  const fresh: Slot = { index: load(store, matcher, workspaceId), size: 0, until: clock.now().getTime() + UNCACHEABLE_MS };
  cache.set(workspaceId, fresh);
  let index: AnchorIndex | null;
  try {
    index = await fresh.index;
  } catch (e) {
    if (cache.get(workspaceId) === fresh) cache.delete(workspaceId);
    throw e;
  }
  if (index && cache.get(workspaceId) === fresh) {
    fresh.size = index.size;
    evict(cache);
  }
  return index;
}

async function load(store: AnchorIndexStore, matcher: PathMatcher, workspaceId: string): Promise<AnchorIndex | null> {
  const loaded = await store.load(workspaceId);
  if (!loaded) return null;
  let n = 0;
  for (const t of loaded.topics) n += t.anchors.length;
  if (n > MAX_CACHED_ANCHORS) return null;
  return buildIndex(loaded.version, matcher, loaded.topics);
}

/** Drops the least recently used workspaces until the cache holds at most `MAX_CACHED_ANCHORS`. */
function evict(cache: Map<string, Slot>): void {
  let total = 0;
  for (const s of cache.values()) total += s.size;
  for (const [id, s] of cache) {
    if (total <= MAX_CACHED_ANCHORS) break;
    total -= s.size;
    cache.delete(id);
  }
}
