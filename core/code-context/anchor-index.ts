import type { AnchorIndexStore, PathMatcher, TopicAnchors } from "./ports.ts";
import { anchorBase } from "./anchor-base.ts";

/**
 * A workspace's anchors, grouped by literal base, kept between requests under the store's anchor
 * version (ADR 038): loaded once per change of the anchors, each pattern compiled the first time
 * a path under its base is tested. The version is read again with every request's one query, so
 * an index that a write made stale is never answered from: it is dropped and loaded again.
 *
 * One cache per store object (a server's, a test's), bounded by the anchors it holds: a workspace
 * with more than `MAX_CACHED_ANCHORS` anchors is not cached (its requests take the uncached path).
 */
export const MAX_CACHED_ANCHORS = 500_000;

type Test = (path: string) => boolean;

export interface IndexedAnchor {
  topicId: string;
  pattern: string;
  /** Compiled on first use; null when the matcher cannot compile the pattern. */
  test: Test | null | undefined;
}

export interface AnchorIndex {
  version: string;
  matcher: PathMatcher;
  /** literal base → the anchors with it. */
  byBase: Map<string, IndexedAnchor[]>;
  /** topic id → its repo and anchors (in the topic's order). */
  topics: Map<string, TopicAnchors>;
  size: number;
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

/** The anchor's predicate, compiled on first use. */
export function testOf(index: AnchorIndex, a: IndexedAnchor): Test | null {
  if (a.test === undefined) {
    try {
      a.test = index.matcher.compile(a.pattern);
    } catch {
      a.test = null;
    }
  }
  return a.test;
}

export function buildIndex(version: string, matcher: PathMatcher, topics: readonly TopicAnchors[]): AnchorIndex {
  const byBase = new Map<string, IndexedAnchor[]>();
  const byId = new Map<string, TopicAnchors>();
  let size = 0;
  for (const t of topics) {
    byId.set(t.id, t);
    for (const pattern of t.anchors) {
      const base = anchorBase(pattern);
      const list = byBase.get(base);
      const entry = { topicId: t.id, pattern, test: undefined };
      if (list) list.push(entry);
      else byBase.set(base, [entry]);
      size++;
    }
  }
  return { version, matcher, byBase, topics: byId, size };
}

/**
 * The workspace's cached index (loaded when there is none), or null when the store keeps no
 * anchor version or the workspace has too many anchors to cache. `stale`: a version the caller
 * saw superseded; an index at it is dropped and loaded again.
 */
export async function anchorIndex(
  store: AnchorIndexStore,
  matcher: PathMatcher,
  workspaceId: string,
  stale?: string,
): Promise<AnchorIndex | null> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, cache = new Map());
  for (let slot = cache.get(workspaceId); slot; slot = cache.get(workspaceId)) {
    const index = await slot.index;
    if (cache.get(workspaceId) !== slot) continue; // replaced meanwhile: look again
    if (index === null ? Date.now() < slot.until : index.matcher === matcher && index.version !== stale) {
      // Most recently used last: eviction takes the first.
      cache.delete(workspaceId);
      cache.set(workspaceId, slot);
      return index;
    }
    cache.delete(workspaceId);
  }
  const fresh: Slot = { index: load(store, matcher, workspaceId), size: 0, until: Date.now() + UNCACHEABLE_MS };
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
