/**
 * Topic reads answered from memory while the workspace's topic version has not moved
 * (docs/decisions/047-topic-read-cache.md). The version moves in the same transaction as every
 * write of one of the workspace's topics, on every instance's database, so an answer kept under
 * version v is exactly what the store would answer as long as the version still reads v: each
 * request reads the version (one indexed read) and either takes the kept answer or asks the store.
 *
 * The version is read before the store is asked. A write that commits in between moves it, so
 * the answer (which may already hold that write) is kept under a version no request will read
 * again: an entry is never newer-labelled than what it holds, only older, and older is never served.
 *
 * Answers are shared between requests: callers must not mutate what `list` or `search` return
 * (they map it into views).
 *
 * Beside a kept answer, what was derived from it can be kept (`KeptBeside`, ADR 049: a page's
 * encoded JSON): it lives and dies with the answer, and counts against the same bound. An answer
 * object comes back from `list`/`search` only while the version it was kept under is current, so
 * "the same object again" means "nothing it was derived from has changed in the store".
 */
import type { Listed } from "../workspaces/mod.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { Topic } from "./model.ts";
import type { KeptBeside, ReadOptions, SearchResult, TopicFilter, TopicSearch, TopicStore } from "./ports.ts";

/** Where a workspace's topic version is read. */
export interface TopicVersions {
  /** The version now; null when the backend keeps none (then every read goes to the store). */
  current(workspaceId: string): Promise<string | null>;
}

export interface TopicReadCacheLimits {
  /** Answers kept, all workspaces together (default 2,000). */
  maxEntries?: number;
  /** Characters of titles and bodies kept, all answers together (default 16 million: about 32 MB). */
  maxChars?: number;
}

interface Entry {
  version: string;
  value: unknown;
  chars: number;
  /** Derived values kept beside the answer, and their characters (counted in `chars` too). */
  beside?: Map<string, { value: unknown; chars: number }>;
}

/** Per-topic overhead counted beside its title and body: ids, tags, timestamps, the object. */
const TOPIC_OVERHEAD_CHARS = 400;

/** A bounded, least-recently-used map of answers, each labelled with the version it was read at. */
export class TopicReadCache implements KeptBeside {
  readonly #entries = new Map<string, Entry>();
  /** The entry of each answer kept now, by the answer object itself. */
  readonly #byAnswer = new WeakMap<object, Entry>();
  readonly #loading = new Map<string, Promise<unknown>>();
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #chars = 0;

  constructor(limits: TopicReadCacheLimits = {}) {
    this.#maxEntries = limits.maxEntries ?? 2_000;
    this.#maxChars = limits.maxChars ?? 16_000_000;
  }

  /** Answers kept now (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The answer under `key` at `version`: the kept one, else `load()`'s, kept when it fits.
   * Concurrent misses of one key at one version share one load.
   */
  async read<T>(version: string, key: string, load: () => Promise<T>, chars: (value: T) => number): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry?.version === version) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return entry.value as T;
    }
    const flight = `${version}\u0000${key}`;
    const pending = this.#loading.get(flight) as Promise<T> | undefined;
    if (pending) return pending;
    const loading = load().then((value) => {
      this.#keep(key, { version, value, chars: chars(value) });
      return value;
    }).finally(() => this.#loading.delete(flight));
    this.#loading.set(flight, loading);
    return loading;
  }

  get(answer: object, key: string): unknown {
    return this.#byAnswer.get(answer)?.beside?.get(key)?.value;
  }

  set(answer: object, key: string, value: unknown, chars: number): void {
    const entry = this.#byAnswer.get(answer);
    if (!entry) return;
    entry.beside ??= new Map();
    const old = entry.beside.get(key);
    const without = entry.chars - (old?.chars ?? 0);
    // Too large to keep: the value it replaces goes all the same (it is no longer the one wanted).
    const keep = without + chars <= this.#maxChars / 4;
    if (keep) entry.beside.set(key, { value, chars });
    else entry.beside.delete(key);
    const grown = (keep ? without + chars : without) - entry.chars;
    entry.chars += grown;
    this.#chars += grown;
    this.#evict();
  }

  #keep(key: string, entry: Entry): void {
    const old = this.#entries.get(key);
    if (old) {
      // A slower load of an older version must not replace a newer answer (versions only grow).
      if (BigInt(old.version) > BigInt(entry.version)) return;
      this.#drop(key, old);
    }
    if (entry.chars > this.#maxChars / 4) return;
    this.#entries.set(key, entry);
    if (typeof entry.value === "object" && entry.value !== null) this.#byAnswer.set(entry.value, entry);
    this.#chars += entry.chars;
    this.#evict();
  }

  #evict(): void {
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars) break;
      this.#drop(k, e);
    }
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    if (typeof entry.value === "object" && entry.value !== null) this.#byAnswer.delete(entry.value);
    this.#chars -= entry.chars;
  }
}

const topicChars = (topics: readonly Topic[]) => topics.reduce((n, t) => n + t.title.length + t.body.length + TOPIC_OVERHEAD_CHARS, 0);

/**
 * `inner` with `list` and `search` answered through `cache` under the workspace's topic version.
 * Reads that depend on the clock (a `stale` filter) always go to the store; so do the others.
 */
export function cachingTopicStore(inner: TopicStore, versions: TopicVersions, cache = new TopicReadCache()): TopicStore {
  const through = async <T>(workspaceId: string, key: string, load: () => Promise<T>, chars: (value: T) => number): Promise<T> => {
    const version = await versions.current(workspaceId);
    return version === null ? load() : cache.read(version, `${workspaceId}\u0000${key}`, load, chars);
  };
  return {
    kept: cache,
    get: (w, id) => inner.get(w, id),
    getMany: (w, ids) => inner.getMany(w, ids),
    resolve: (w, slug) => inner.resolve(w, slug),
    resolveMany: (w, slugs) => inner.resolveMany(w, slugs),
    list(workspaceId: string, filter: TopicFilter, page: OffsetPage, options?: ReadOptions): Promise<Listed<Topic>> {
      const load = () => inner.list(workspaceId, filter, page, options);
      if (filter.stale) return load();
      const key = `list\u0000${JSON.stringify([filter, page.limit, page.offset, options?.bodyChars ?? null])}`;
      return through(workspaceId, key, load, (l) => topicChars(l.items));
    },
    search(workspaceId: string, s: TopicSearch): Promise<SearchResult> {
      const load = () => inner.search(workspaceId, s);
      if (s.stale) return load();
      const key = `search\u0000${JSON.stringify([s.terms, s.statuses, s.tags ?? null, s.limit, s.countCap ?? null, s.bodyChars ?? null])}`;
      return through(workspaceId, key, load, (r) => topicChars(r.items));
    },
    history: (w, id, limit) => inner.history(w, id, limit),
    anchoredAt: (w, repo, bases, limit, options) => inner.anchoredAt(w, repo, bases, limit, options),
    timeline: (w, filter, page) => inner.timeline(w, filter, page),
    insert: (w) => inner.insert(w),
    update: (w) => inner.update(w),
    merge: (source, target) => inner.merge(source, target),
    delete: (w, id, expected, event) => inner.delete(w, id, expected, event),
  };
}
