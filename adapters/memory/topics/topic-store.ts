import { dropTopicShares, type SharingTables } from "../sharing/mod.ts";
import type { TopicTables } from "./tables.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { anchorBases } from "../../../core/code-context/anchor-base.ts";
import type { Topic, TopicEvent } from "../../../core/topics/model.ts";
import type {
  Resolved,
  SearchResult,
  StaleFilter,
  TimelineFilter,
  TopicFilter,
  TopicSearch,
  TopicStore,
  TopicWrite,
} from "../../../core/topics/ports.ts";
import { compareListed, compareRanked, scoreTopic } from "../../../core/topics/search-rank.ts";
import { topicTerms } from "../../../core/topics/search-terms.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { copy, inWorkspace, page } from "../rows.ts";

/** Whether a topic is stale as of `f.before`, the rule of core/topics/staleness.ts as a filter. */
export function matchesStale(t: Topic, f: StaleFilter): boolean {
  const stale = t.status === "reviewed" && t.governance.approved_at !== null && t.governance.approved_at < f.before;
  return stale === f.is;
}

function matchesFilter(t: Topic, f: TopicFilter): boolean {
  if (f.status === undefined ? t.status === "archived" : t.status !== f.status) return false;
  if (f.tags && !t.tags.some((x) => f.tags!.includes(x))) return false;
  if (f.stale && !matchesStale(t, f.stale)) return false;
  if (f.kind && t.kind !== f.kind) return false;
  if (f.origin && t.origin !== f.origin) return false;
  if (f.repoId && t.repo_id !== f.repoId) return false;
  if (f.hasExternal !== undefined && (t.source_url !== null) !== f.hasExternal) return false;
  if (f.drifted !== undefined && (t.drift !== null) !== f.drifted) return false;
  if (f.hasOwner !== undefined && (t.owner_id !== null) !== f.hasOwner) return false;
  if (f.hasAnchors !== undefined && (t.anchors.length > 0) !== f.hasAnchors) return false;
  return true;
}

/** The reference TopicStore: each method runs without awaiting in between, so each is atomic. */
export class MemoryTopicStore implements TopicStore {
  constructor(private t: TopicTables & SharingTables) {}

  async get(workspaceId: string, topicId: string): Promise<Topic | null> {
    const topic = this.t.topics.get(topicId);
    return topic && topic.workspace_id === workspaceId ? copy(topic) : null;
  }

  async getMany(workspaceId: string, topicIds: readonly string[]): Promise<Topic[]> {
    const out: Topic[] = [];
    for (const id of new Set(topicIds)) {
      const topic = this.t.topics.get(id);
      if (topic && topic.workspace_id === workspaceId) out.push(copy(topic));
    }
    return out;
  }

  private bySlug(workspaceId: string, slug: string): Topic | undefined {
    return inWorkspace(this.t.topics, workspaceId).find((x) => x.slug === slug);
  }

  async resolve(workspaceId: string, slug: string): Promise<Resolved | null> {
    return this.resolveNow(workspaceId, slug);
  }

  async resolveMany(workspaceId: string, slugs: readonly string[]): Promise<Map<string, Resolved>> {
    const out = new Map<string, Resolved>();
    for (const slug of new Set(slugs)) {
      const found = this.resolveNow(workspaceId, slug);
      if (found) out.set(slug, found);
    }
    return out;
  }

  private resolveNow(workspaceId: string, slug: string): Resolved | null {
    const live = this.bySlug(workspaceId, slug);
    if (live) return { topic: copy(live), redirectedFrom: null };
    const id = this.t.topicRedirects.get(`${workspaceId}:${slug}`);
    const topic = id ? this.t.topics.get(id) : undefined;
    return topic ? { topic: copy(topic), redirectedFrom: slug } : null;
  }

  async list(workspaceId: string, filter: TopicFilter, p: OffsetPage): Promise<Listed<Topic>> {
    const rows = inWorkspace(this.t.topics, workspaceId).filter((x) => matchesFilter(x, filter)).sort(compareListed);
    return page(rows, p.offset, p.limit);
  }

  async search(workspaceId: string, s: TopicSearch): Promise<SearchResult> {
    const hits: Array<{ topic: Topic; score: number; id: string; status: Topic["status"]; updated_at: string }> = [];
    for (const topic of inWorkspace(this.t.topics, workspaceId)) {
      if (!s.statuses.includes(topic.status)) continue;
      if (s.tags && !topic.tags.some((x) => s.tags!.includes(x))) continue;
      if (s.stale && !matchesStale(topic, s.stale)) continue;
      const terms = topicTerms(topic);
      const score = scoreTopic({ title: new Set(terms.title), tags: new Set(terms.tags), body: new Set(terms.body) }, s.terms);
      if (score !== null) hits.push({ topic, score, id: topic.id, status: topic.status, updated_at: topic.updated_at });
    }
    hits.sort(compareRanked);
    const cap = s.countCap ?? Number.POSITIVE_INFINITY;
    return { items: hits.slice(0, s.limit).map((h) => copy(h.topic)), total: Math.min(hits.length, cap), capped: hits.length > cap };
  }

  async anchoredAt(workspaceId: string, repoId: string | null, bases: string[], limit: number): Promise<Topic[]> {
    const wanted = new Set(bases);
    return inWorkspace(this.t.topics, workspaceId)
      .filter((x) => x.status !== "archived" && (repoId === null || x.repo_id === repoId))
      .filter((x) => anchorBases(x.anchors).some((b) => wanted.has(b)))
      .sort(compareListed)
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  async history(workspaceId: string, topicId: string, limit: number): Promise<TopicEvent[]> {
    return inWorkspace(this.t.topicEvents, workspaceId)
      .filter((e) => e.topic_id === topicId && e.snapshot !== null)
      .sort((a, b) => b.version - a.version)
      .slice(0, limit)
      .map(copy);
  }

  async timeline(workspaceId: string, f: TimelineFilter, p: OffsetPage): Promise<Listed<TopicEvent>> {
    const rows = inWorkspace(this.t.topicEvents, workspaceId)
      .filter((e) => (!f.type || e.type === f.type) && (!f.repoId || e.repo_id === f.repoId))
      .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const listed = page(rows, p.offset, p.limit);
    return { items: listed.items.map((e) => ({ ...e, snapshot: null })), total: listed.total };
  }

  /** Applies a checked write: topic, event, redirects and tag registry. */
  private apply(w: TopicWrite, before: Topic | null): void {
    const ws = w.topic.workspace_id;
    this.t.topicRedirects.delete(`${ws}:${w.topic.slug}`);
    if (before && before.slug !== w.topic.slug) this.t.topicRedirects.set(`${ws}:${before.slug}`, w.topic.id);
    this.t.topics.set(w.topic.id, copy(w.topic));
    this.t.topicEvents.set(w.event.id, copy(w.event));
    // The anchor version moves with the anchors and the repo (core/code-context/ports.ts).
    const anchored = before
      ? before.repo_id !== w.topic.repo_id || before.anchors.join("\n") !== w.topic.anchors.join("\n")
      : w.topic.anchors.length > 0;
    if (anchored) this.t.anchorVersions.set(ws, (this.t.anchorVersions.get(ws) ?? 0) + 1);
    registerTags(this.t, ws, w.topic.tags, w.topic.updated_at);
  }

  private check(w: TopicWrite): Topic | "version_conflict" | "not_found" | "slug_taken" {
    const cur = this.t.topics.get(w.topic.id);
    if (!cur || cur.workspace_id !== w.topic.workspace_id) return "not_found";
    if (cur.version !== w.topic.version - 1) return "version_conflict";
    const holder = this.bySlug(w.topic.workspace_id, w.topic.slug);
    if (holder && holder.id !== w.topic.id) return "slug_taken";
    return cur;
  }

  async insert(w: TopicWrite): Promise<"ok" | "slug_taken"> {
    if (this.bySlug(w.topic.workspace_id, w.topic.slug)) return "slug_taken";
    this.apply(w, null);
    return "ok";
  }

  async update(w: TopicWrite): Promise<"ok" | "version_conflict" | "not_found" | "slug_taken"> {
    const cur = this.check(w);
    if (typeof cur === "string") return cur;
    this.apply(w, cur);
    return "ok";
  }

  async merge(source: TopicWrite, target: TopicWrite): Promise<"ok" | "version_conflict" | "not_found"> {
    const s = this.check(source);
    const t = this.check(target);
    for (const r of [s, t]) if (r === "version_conflict" || r === "not_found") return r;
    if (typeof s === "string" || typeof t === "string") return "version_conflict";
    this.apply(target, t);
    this.apply(source, s);
    return "ok";
  }

  async delete(workspaceId: string, topicId: string, expectedVersion: number | null, event: TopicEvent) {
    const cur = this.t.topics.get(topicId);
    if (!cur || cur.workspace_id !== workspaceId) return "not_found" as const;
    if (expectedVersion !== null && cur.version !== expectedVersion) return "version_conflict" as const;
    this.t.topics.delete(topicId);
    dropTopicShares(this.t, workspaceId, topicId);
    for (const [key, id] of this.t.topicRedirects) if (id === topicId) this.t.topicRedirects.delete(key);
    for (const e of this.t.topicEvents.values()) if (e.topic_id === topicId) e.snapshot = null;
    this.t.topicEvents.set(event.id, copy(event));
    return "ok" as const;
  }
}

/** Attaching an unregistered tag registers it (no description). */
export function registerTags(t: TopicTables, workspaceId: string, names: readonly string[], at: string): void {
  for (const name of names) {
    const key = `${workspaceId}:${name}`;
    if (!t.tags.has(key)) t.tags.set(key, { workspace_id: workspaceId, name, description: null, created_at: at, updated_at: at });
  }
}
