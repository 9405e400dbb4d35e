import type { CodeContextDeps, KeptHead, PathMatcher, ReadVersions, TopicHeadStore } from "./ports.ts";
import { type AnchorIndex, anchorIndex, matchesOf } from "./anchor-index.ts";
import { candidatesOver, MAX_MATCH_CANDIDATES } from "./anchor-match.ts";
import { compareKeptMatched } from "./topic-head.ts";

/**
 * What match-files and retrieve read of a workspace's topics, kept in memory under its topic
 * version (ADR 048): the matched topics' heads, each path's matches in match order, and the text
 * candidates of a question. The topic version moves in the same transaction as every write of one
 * of the workspace's topics (ADR 047), so what was read at version v is what the store holds as
 * long as the version reads v: a request reads the two versions (anchor and topic, one statement),
 * answers from memory what is kept at them, and reads by key only what is not (one statement,
 * which reads the versions again: what it gives is kept only if they have not moved, so an entry
 * is always labelled with the exact version it was read at). A moved topic version drops the
 * workspace's entry whole.
 *
 * Bounded: at most `MAX_KEPT` kept items (a head, a path's match, a text candidate) for all
 * workspaces of a store object together, least recently used workspaces dropped first; per
 * workspace at most `MAX_KEPT_PATHS` paths and `MAX_KEPT_QUESTIONS` questions, oldest first.
 */
export const MAX_KEPT = 300_000;
export const MAX_KEPT_PATHS = 20_000;
export const MAX_KEPT_QUESTIONS = 500;

/** A path's match: the topic's head and its anchors matching the path, in the topic's order. */
export interface KeptMatch {
  head: KeptHead;
  anchors: string[];
}

/** A topic a question's words found, with each word's field weight in it (the words' order). */
export interface TextCandidate {
  head: KeptHead;
  weights: number[];
}

interface Kept {
  topics: string;
  /** The index the path lists were matched on (its version and object): a new one starts them again. */
  index: AnchorIndex | null;
  /** id → head; null when the topic is archived or gone. */
  heads: Map<string, KeptHead | null>;
  /** `repo \0 path` → its matches in match order. */
  paths: Map<string, KeptMatch[]>;
  pathEntries: number;
  texts: Map<string, TextCandidate[]>;
  textEntries: number;
  size: number;
}

interface Cache {
  workspaces: Map<string, Kept>;
  size: number;
}

const caches = new WeakMap<TopicHeadStore, Cache>();

function cacheOf(store: TopicHeadStore): Cache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, cache = { workspaces: new Map(), size: 0 });
  return cache;
}

/** The workspace's entry at `versions.topics` (a fresh one when it moved), most recently used. */
function keptAt(store: TopicHeadStore, workspaceId: string, versions: ReadVersions): Kept {
  const cache = cacheOf(store);
  let k = cache.workspaces.get(workspaceId);
  const fresh = (): Kept => ({
    topics: versions.topics,
    index: null,
    heads: new Map(),
    paths: new Map(),
    pathEntries: 0,
    texts: new Map(),
    textEntries: 0,
    size: 0,
  });
  // A request that read the version before a write, after another kept what followed it: it reads
  // for itself (an entry not kept), and leaves the newer entry in place.
  if (k && BigInt(k.topics) > BigInt(versions.topics)) return fresh();
  if (k) cache.workspaces.delete(workspaceId);
  if (k && k.topics !== versions.topics) {
    cache.size -= k.size;
    k = undefined;
  }
  k ??= fresh();
  cache.workspaces.set(workspaceId, k);
  return k;
}

/** After `k` grew: its own bounds, then the store's, least recently used workspaces first. */
function account(store: TopicHeadStore, workspaceId: string, k: Kept): void {
  const cache = cacheOf(store);
  for (const [key, list] of k.paths) {
    if (k.paths.size <= MAX_KEPT_PATHS) break;
    k.paths.delete(key);
    k.pathEntries -= list.length;
  }
  for (const [key, list] of k.texts) {
    if (k.texts.size <= MAX_KEPT_QUESTIONS) break;
    k.texts.delete(key);
    k.textEntries -= list.length;
  }
  const size = k.heads.size + k.pathEntries + k.textEntries;
  if (cache.workspaces.get(workspaceId) === k) cache.size += size - k.size;
  k.size = size;
  for (const [id, e] of cache.workspaces) {
    if (cache.size <= MAX_KEPT) break;
    cache.workspaces.delete(id);
    cache.size -= e.size;
  }
}

/** How often a request reads again after the versions moved under it, before it reads as before. */
const ATTEMPTS = 3;

/**
 * Per path (in the order given), the topics (of `repoId`, or any repo when null) whose anchors
 * match it, in match order, with the versions they were read at; null when nothing can be kept
 * (the store keeps no topic version, the workspace's anchors are not cached or too many topics
 * are candidates, or the versions kept moving): the caller then reads as before.
 */
export async function keptMatches(
  deps: CodeContextDeps,
  matcher: PathMatcher,
  workspaceId: string,
  repoId: string | null,
  paths: readonly string[],
  /** The versions the caller has just read, for the first attempt. */
  read?: ReadVersions,
): Promise<{ versions: ReadVersions; byPath: KeptMatch[][] } | null> {
  const store = deps.stores.topicHeads;
  let stale: string | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const versions = attempt === 0 && read ? read : await store.versions(workspaceId);
    if (!versions) return null;
    const index = await anchorIndex(deps.stores.anchorIndex, deps.clock, matcher, workspaceId, stale);
    if (!index) return null;
    if (index.version !== versions.anchors) {
      // An index older than the version read is loaded again; a newer one (loaded meanwhile) is
      // kept, and the versions are read again.
      if (BigInt(index.version) < BigInt(versions.anchors)) stale = index.version;
      continue;
    }
    // Which candidates the reference path would consider depends on their list order, which only
    // the store knows: beyond the cap, it answers.
    if (candidatesOver(index, paths, repoId, MAX_MATCH_CANDIDATES)) return null;
    const k = keptAt(store, workspaceId, versions);
    if (k.index !== index) {
      k.index = index;
      k.paths.clear();
      k.pathEntries = 0;
    }
    const keys = paths.map((path) => `${repoId ?? ""}\u0000${path}`);
    const byPath = keys.map((key) => k.paths.get(key));
    const missing: number[] = [];
    byPath.forEach((list, i) => list === undefined && missing.push(i));
    if (missing.length === 0) return { versions, byPath: byPath as KeptMatch[][] };

    const found = missing.map((i) => {
      const all = matchesOf(index, paths[i]!);
      return repoId === null ? all : all.filter((m) => m.topic.repo_id === repoId);
    });
    const unknown = new Set<string>();
    for (const matches of found) for (const m of matches) if (!k.heads.has(m.topic.id)) unknown.add(m.topic.id);
    if (unknown.size > 0) {
      const ids = [...unknown];
      const read = await store.heads(workspaceId, ids);
      if (read.versions?.topics !== versions.topics || read.versions.anchors !== versions.anchors) continue;
      for (const id of ids) k.heads.set(id, null); // archived or gone, unless read below
      for (const { at: _at, ...head } of read.heads) k.heads.set(head.id, head);
    }
    missing.forEach((i, n) => {
      const list: KeptMatch[] = [];
      for (const m of found[n]!) {
        const head = k.heads.get(m.topic.id);
        if (head) list.push({ head, anchors: m.anchors });
      }
      list.sort((a, b) => compareKeptMatched(a.head, b.head));
      byPath[i] = list;
      if (!k.paths.has(keys[i]!)) {
        k.paths.set(keys[i]!, list);
        k.pathEntries += list.length;
      }
    });
    account(store, workspaceId, k);
    return { versions, byPath: byPath as KeptMatch[][] };
  }
  return null;
}

/**
 * The text candidates of `key` (a question's words and statuses) at `versions`: the kept ones, else
 * `load()`'s, kept when the versions it read are still those (`load` says them).
 */
export async function keptText(
  deps: CodeContextDeps,
  workspaceId: string,
  versions: ReadVersions,
  key: string,
  load: () => Promise<{ versions: ReadVersions | null; candidates: TextCandidate[] }>,
): Promise<TextCandidate[]> {
  const store = deps.stores.topicHeads;
  const k = keptAt(store, workspaceId, versions);
  const known = k.texts.get(key);
  if (known) {
    k.texts.delete(key);
    k.texts.set(key, known);
    return known;
  }
  const loaded = await load();
  if (loaded.versions?.topics === k.topics && !k.texts.has(key)) {
    k.texts.set(key, loaded.candidates);
    k.textEntries += loaded.candidates.length;
    account(store, workspaceId, k);
  }
  return loaded.candidates;
}
