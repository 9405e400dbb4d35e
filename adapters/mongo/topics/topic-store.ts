/**
 * Topics without multi-document transactions (docs/decisions/005-mongo-without-transactions.md,
 * "Topics"). A write touches up to five documents (event, tags, redirects, topic); FerretDB v1 has
 * no transactions and no atomic conditional update, so the rules are:
 *
 * - **The event is the lock.** `topic_events` has a unique index (workspace_id, topic_id,
 *   version). A write of version v+1 reads the topic (its stored version must be v, else
 *   "version_conflict" and nothing is written), then inserts its event, which carries the whole
 *   next state in `snapshot`. Of concurrent writers of v+1 exactly one inserts; the others get a
 *   duplicate key: "version_conflict".
 * - **Then the state.** The winner registers the topic's unregistered tags, upserts the redirect
 *   of the old slug (when the slug changes), and replaces the topic document by `_id`, on the
 *   condition `version < v+1` (atomic on MongoDB; on FerretDB it narrows the window in which a
 *   late replace could move a document backwards); last it drops a redirect that held the new
 *   slug. Redirect and tags go first so that no reader sees the new state without them; a
 *   redirect of the slug the topic still holds is shadowed (`resolve` looks at live slugs first)
 *   and a registered tag no topic carries is a state the port allows.
 * - **Slug uniqueness** is the topics (workspace_id, slug) unique index. A replace refused by it
 *   takes its event back (delete by `_id`: compensation) and answers "slug_taken".
 * - **Healing.** A crash between the event insert and the replace leaves an event newer than the
 *   document. The next writer of that version collides with the event; it rolls the document
 *   forward from the newest event's snapshot (the same steps as the writer) and answers
 *   "version_conflict", so its caller re-reads the healed topic. A write whose caller saw a
 *   version newer than the document, a delete, and `history` heal the same way. An event whose
 *   snapshot cannot be applied (its slug was taken meanwhile) is taken back instead.
 * - **Delete**: the `topic.deleted` event is inserted as version v+1 (the lock again), then the
 *   topic document is deleted, then its redirects, then the snapshots of its events are nulled.
 *   A crash leaves a deletion event: a writer meeting it finishes the deletion ("not_found"), as
 *   does `delete` called again.
 * - **Insert**: a live slug refuses at once; else the tags are registered, the topic document
 *   inserted (the unique slug decides concurrent inserts: "slug_taken", nothing else written but
 *   the tags), then its event, then a redirect holding the slug is dropped.
 * - **Merge**: the source's version is checked, then the target is written (the CAS above), then
 *   the source. A failure after the target leaves the merge half done; core completes it on
 *   retry by calling `update(archivedSource)`, since the target's `merged_from` names the source.
 *
 * Residual windows, all on FerretDB only or needing a crash: between the event insert and the
 * replace (milliseconds) readers see the old state and the timeline already shows the event; a
 * writer whose event was taken back by a healer because its slug was taken, while the slug's
 * holder moved away in the same milliseconds, could still replace the document.
 */
import type { TopicCollections } from "./collections.ts";
import type { SharingCollections } from "../sharing/mod.ts";
import type { Filter } from "mongodb";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
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
import { compareRanked, type Ranked, scoreTopic } from "../../../core/topics/search-rank.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { backoff } from "../retry.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { listPage } from "../list-page.ts";
import {
  redirectKey,
  type TagDoc,
  tagKey,
  TOPIC_FIELDS_ONLY,
  type TopicDoc,
  topicDoc,
  type TopicEventDoc,
  topicEventDoc,
  type TopicRedirectDoc,
  toTopic,
  toTopicEvent,
} from "./documents.ts";

export type WriteResult = "ok" | "version_conflict" | "not_found" | "slug_taken";

/** What rolling a topic forward found: moved on, nothing to do, the topic deleted, or no topic. */
type Healed = "rolled" | "current" | "deleted" | "gone";

/** Rounds of "re-read and try again" inside one call (a taken-back event, a healed document). */
const MAX_ROUNDS = 5;

const VERSION_ONLY = { projection: { slug: 1, version: 1 } } as const;

export class MongoTopicStore implements TopicStore {
  constructor(private readonly c: TopicCollections & SharingCollections) {}

  // ---- reads ----

  async get(workspaceId: string, topicId: string): Promise<Topic | null> {
    const d = await this.c.topics.findOne({ _id: topicId, workspace_id: workspaceId }, { projection: TOPIC_FIELDS_ONLY });
    return d ? toTopic(d) : null;
  }

  async getMany(workspaceId: string, topicIds: readonly string[]): Promise<Topic[]> {
    const ids = [...new Set(topicIds)];
    if (ids.length === 0) return [];
    const docs = await this.c.topics.find({ workspace_id: workspaceId, _id: { $in: ids } }, { projection: TOPIC_FIELDS_ONLY }).toArray();
    return docs.map(toTopic);
  }

  async resolve(workspaceId: string, slug: string): Promise<{ topic: Topic; redirectedFrom: string | null } | null> {
    const live = await this.c.topics.findOne({ workspace_id: workspaceId, slug }, { projection: TOPIC_FIELDS_ONLY });
    if (live) return { topic: toTopic(live), redirectedFrom: null };
    const r = await this.c.topicRedirects.findOne({ _id: redirectKey(workspaceId, slug) });
    if (!r || r.workspace_id !== workspaceId) return null;
    const topic = await this.get(workspaceId, r.topic_id);
    return topic ? { topic, redirectedFrom: slug } : null;
  }

  /**
   * Live slugs and redirects are read side by side, then the topics the redirects name: at most
   * three index reads whatever the number of slugs (FerretDB v1 has no `$lookup` to join them).
   */
  async resolveMany(workspaceId: string, slugs: readonly string[]): Promise<Map<string, Resolved>> {
    const asked = [...new Set(slugs)];
    const out = new Map<string, Resolved>();
    if (asked.length === 0) return out;
    const [live, redirects] = await Promise.all([
      this.c.topics.find({ workspace_id: workspaceId, slug: { $in: asked } }, { projection: TOPIC_FIELDS_ONLY }).toArray(),
      this.c.topicRedirects.find({ _id: { $in: asked.map((slug) => redirectKey(workspaceId, slug)) }, workspace_id: workspaceId })
        .toArray(),
    ]);
    for (const d of live) out.set(d.slug, { topic: toTopic(d), redirectedFrom: null });
    const pending = redirects.filter((r) => !out.has(r.slug));
    if (pending.length === 0) return out;
    const targets = new Map((await this.getMany(workspaceId, pending.map((r) => r.topic_id))).map((t) => [t.id, t]));
    for (const r of pending) {
      const topic = targets.get(r.topic_id);
      if (topic) out.set(r.slug, { topic, redirectedFrom: r.slug });
    }
    return out;
  }

  async list(workspaceId: string, filter: TopicFilter, page: OffsetPage): Promise<Listed<Topic>> {
    if (filter.tags?.length === 0) return { items: [], total: 0 };
    const q: Filter<TopicDoc> = { workspace_id: workspaceId, status: filter.status ?? { $ne: "archived" } };
    if (filter.tags) q.tags = { $in: filter.tags };
    if (filter.kind) q.kind = filter.kind;
    if (filter.origin) q.origin = filter.origin;
    if (filter.repoId) q.repo_id = filter.repoId;
    if (filter.hasExternal !== undefined) q.source_url = filter.hasExternal ? { $ne: null } : null;
    if (filter.stale) q.$and = [staleClause(filter.stale)];
    if (filter.drifted !== undefined) q.drift = filter.drifted ? { $ne: null } : null;
    if (filter.hasOwner !== undefined) q.owner_id = filter.hasOwner ? { $ne: null } : null;
    if (filter.hasAnchors !== undefined) q["anchors.0"] = { $exists: filter.hasAnchors };
    const limit = Math.max(0, Math.trunc(page.limit));
    const offset = Math.max(0, Math.trunc(page.offset));
    const [docs, total] = await Promise.all([
      limit === 0 ? Promise.resolve([]) : this.c.topics
        .find(q, { projection: TOPIC_FIELDS_ONLY })
        .sort({ list_rank: -1, updated_at: -1, _id: -1 })
        .skip(offset)
        .limit(limit)
        .toArray(),
      this.c.topics.countDocuments(q),
    ]);
    return { items: docs.map(toTopic), total };
  }

  async anchoredAt(workspaceId: string, repoId: string | null, bases: string[], limit: number): Promise<Topic[]> {
    if (bases.length === 0 || limit <= 0) return [];
    const q: Filter<TopicDoc> = { workspace_id: workspaceId, status: { $ne: "archived" }, anchor_bases: { $in: bases } };
    if (repoId !== null) q.repo_id = repoId;
    const docs = await this.c.topics.find(q, { projection: TOPIC_FIELDS_ONLY }).sort({ list_rank: -1, updated_at: -1, _id: -1 }).limit(
      limit,
    ).toArray();
    return docs.map(toTopic);
  }

  /**
   * No text index on FerretDB: the candidates are the topics holding every term (`terms: $all`,
   * a multikey index on MongoDB), read without body and terms; each is scored with `scoreTopic`
   * (a term in neither title nor tags is in the body, since the document matched), the best
   * `limit` kept as they stream by, the rest only counted. Then the full documents of the best.
   */
  async search(workspaceId: string, s: TopicSearch): Promise<SearchResult> {
    if (s.tags?.length === 0 || s.terms.length === 0) return { items: [], total: 0 };
    const q: Filter<TopicDoc> = { workspace_id: workspaceId, status: { $in: s.statuses }, terms: { $all: s.terms } };
    if (s.tags) q.tags = { $in: s.tags };
    if (s.stale) q.$and = [staleClause(s.stale)];
    const limit = Math.max(0, Math.trunc(s.limit));
    const body = new Set(s.terms);
    const top: Ranked[] = [];
    let total = 0;
    const cursor = this.c.topics.find(q, { projection: { _id: 1, status: 1, updated_at: 1, title_terms: 1, tag_terms: 1 } });
    for await (const d of cursor) {
      const score = scoreTopic({ title: new Set(d.title_terms ?? []), tags: new Set(d.tag_terms ?? []), body }, s.terms);
      if (score === null) continue;
      total++;
      const r: Ranked = { id: d._id, status: d.status, updated_at: d.updated_at, score };
      if (top.length === limit && (limit === 0 || compareRanked(r, top[limit - 1]!) >= 0)) continue;
      let lo = 0;
      let hi = top.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareRanked(top[mid]!, r) <= 0) lo = mid + 1;
        else hi = mid;
      }
      top.splice(lo, 0, r);
      if (top.length > limit) top.pop();
    }
    const cap = s.countCap ?? Number.POSITIVE_INFINITY;
    if (top.length === 0) return { items: [], total: Math.min(total, cap), capped: total > cap };
    const docs = await this.c.topics
      .find({ workspace_id: workspaceId, _id: { $in: top.map((r) => r.id) } }, { projection: TOPIC_FIELDS_ONLY })
      .toArray();
    const byId = new Map(docs.map((d) => [d._id, d]));
    const items = top.flatMap((r) => {
      const d = byId.get(r.id);
      return d ? [toTopic(d)] : []; // deleted since the scan
    });
    return { items, total: Math.min(total, cap), capped: total > cap };
  }

  async history(workspaceId: string, topicId: string, limit: number): Promise<TopicEvent[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    for (let round = 0;; round++) {
      const [events, doc] = await Promise.all([
        this.c.topicEvents
          .find({ workspace_id: workspaceId, topic_id: topicId, snapshot: { $ne: null } })
          .sort({ version: -1 })
          .limit(n)
          .toArray(),
        this.c.topics.findOne({ _id: topicId, workspace_id: workspaceId }, VERSION_ONLY),
      ]);
      if (events.length === 0) return [];
      if (!doc) {
        await this.finishDeletion(workspaceId, topicId, false);
        return [];
      }
      // An event newer than the document: a write cut short between its two steps.
      if (events[0]!.version > doc.version && round < MAX_ROUNDS) {
        if ((await this.rollForward(workspaceId, topicId)) !== "current") continue;
      }
      return events.map(toTopicEvent);
    }
  }

  timeline(workspaceId: string, f: TimelineFilter, page: OffsetPage): Promise<Listed<TopicEvent>> {
    const q: Filter<TopicEventDoc> = { workspace_id: workspaceId };
    if (f.type) q.type = f.type;
    if (f.repoId) q.repo_id = f.repoId;
    // Timeline rows leave the snapshots (whole topic bodies) on the server.
    return listPage(this.c.topicEvents, q, { at: -1, _id: -1 }, page, toTopicEvent, { snapshot: 0 });
  }

  // ---- writes ----

  async insert(w: TopicWrite): Promise<"ok" | "slug_taken"> {
    const t = w.topic;
    const holder = await this.c.topics.findOne({ workspace_id: t.workspace_id, slug: t.slug }, { projection: { _id: 1 } });
    if (holder && holder._id !== t.id) return "slug_taken";
    await this.registerTags(t.workspace_id, t.tags, t.updated_at);
    try {
      await this.c.topics.insertOne(topicDoc(t));
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      // This very topic (a call repeated after a crash) is completed; any other holder wins.
      const same = await this.c.topics.findOne({ _id: t.id }, { projection: { _id: 1 } });
      if (!same) return "slug_taken";
    }
    await this.insertEvent(w.event, true);
    await this.c.topicRedirects.deleteOne({ _id: redirectKey(t.workspace_id, t.slug) });
    return "ok";
  }

  update(w: TopicWrite): Promise<WriteResult> {
    return this.write(w);
  }

  async merge(source: TopicWrite, target: TopicWrite): Promise<"ok" | "version_conflict" | "not_found"> {
    // Check the source before writing anything, so a stale source leaves the target alone.
    const s = await this.c.topics.findOne({ _id: source.topic.id, workspace_id: source.topic.workspace_id }, VERSION_ONLY);
    if (!s) return "not_found";
    if (s.version !== source.topic.version - 1) {
      const healed = s.version < source.topic.version - 1 ? await this.rollForward(source.topic.workspace_id, source.topic.id) : "current";
      if (healed === "deleted") return "not_found";
      const again = await this.c.topics.findOne({ _id: source.topic.id, workspace_id: source.topic.workspace_id }, VERSION_ONLY);
      if (!again) return "not_found";
      if (again.version !== source.topic.version - 1) return "version_conflict";
    }
    const t = await this.write(target);
    if (t !== "ok") return t === "slug_taken" ? "version_conflict" : t;
    const r = await this.write(source);
    return r === "slug_taken" ? "version_conflict" : r;
  }

  async delete(
    workspaceId: string,
    topicId: string,
    expectedVersion: number | null,
    event: TopicEvent,
  ): Promise<"ok" | "version_conflict" | "not_found"> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cur = await this.c.topics.findOne({ _id: topicId, workspace_id: workspaceId }, VERSION_ONLY);
      if (!cur) {
        await this.finishDeletion(workspaceId, topicId, false);
        return "not_found";
      }
      if (expectedVersion !== null && cur.version !== expectedVersion) {
        if (cur.version < expectedVersion) {
          const healed = await this.rollForward(workspaceId, topicId);
          if (healed === "rolled") continue;
          if (healed === "deleted" || healed === "gone") return "not_found";
        }
        return "version_conflict";
      }
      // The deletion takes version v+1 like any write, so it cannot interleave with one.
      const ev: TopicEvent = { ...event, version: cur.version + 1, snapshot: null };
      const blocking = await this.insertEvent(ev, false);
      if (blocking === "retry") continue;
      if (blocking !== "ours") {
        if (blocking.type === "topic.deleted") {
          await this.finishDeletion(workspaceId, topicId, true); // another deletion, cut short or racing
          return "not_found";
        }
        const healed = await this.rollForward(workspaceId, topicId);
        if (healed === "deleted" || healed === "gone") return "not_found";
        if (expectedVersion === null) {
          await backoff(round);
          continue;
        }
        return "version_conflict";
      }
      await this.finishDeletion(workspaceId, topicId, true);
      return "ok";
    }
    return "version_conflict";
  }

  /**
   * The compare-and-set of one topic write (see the top of this file): check the stored version,
   * insert the event (the lock), apply the state. Also the path of `TagStore.retag`.
   */
  async write(w: TopicWrite): Promise<WriteResult> {
    const ws = w.topic.workspace_id;
    const id = w.topic.id;
    const v = w.topic.version - 1;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cur = await this.c.topics.findOne({ _id: id, workspace_id: ws }, VERSION_ONLY);
      if (!cur) {
        await this.finishDeletion(ws, id, false);
        return "not_found";
      }
      if (cur.version !== v) {
        if (cur.version < v) {
          const healed = await this.rollForward(ws, id);
          if (healed === "rolled") continue;
          if (healed === "deleted" || healed === "gone") return "not_found";
        } else if (cur.version >= w.topic.version && (await this.c.topicEvents.countDocuments({ _id: w.event.id }, { limit: 1 })) > 0) {
          return "ok"; // this very write, repeated after it went through
        }
        return "version_conflict";
      }
      const blocking = await this.insertEvent(w.event, false);
      if (blocking === "retry") continue;
      if (blocking !== "ours") {
        // Another writer holds version v+1: its state may not be on the document yet.
        const healed = await this.rollForward(ws, id);
        if (healed === "deleted" || healed === "gone") return "not_found";
        // Taken back (its slug was taken): that write never happened, and v is current again.
        if (healed === "rolled" && (await this.c.topicEvents.countDocuments({ _id: blocking._id }, { limit: 1 })) === 0) continue;
        return "version_conflict";
      }
      const applied = await this.applyState(cur.slug, w.topic);
      if (applied === "slug_taken") {
        await this.c.topicEvents.deleteOne({ _id: w.event.id }); // take the lock back
        return "slug_taken";
      }
      return "ok";
    }
    return "version_conflict";
  }

  // ---- the steps ----

  /**
   * Inserts an event. "ours": inserted (or already there under its own id: a repeated call);
   * "retry": refused by an event that is gone since (taken back); else the event holding the
   * version.
   */
  private async insertEvent(e: TopicEvent, ignoreDuplicate: boolean): Promise<"ours" | "retry" | TopicEventDoc> {
    try {
      await this.c.topicEvents.insertOne(topicEventDoc(e));
      return "ours";
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      if (ignoreDuplicate) return "ours";
    }
    const holder = await this.c.topicEvents.findOne({ workspace_id: e.workspace_id, topic_id: e.topic_id, version: e.version });
    if (!holder) return (await this.c.topicEvents.countDocuments({ _id: e.id }, { limit: 1 })) > 0 ? "ours" : "retry";
    return holder._id === e.id ? "ours" : holder;
  }

  /**
   * Puts `next` on the topic whose document holds `prevSlug`: tags, the old slug's redirect, the
   * document (only forward), then the new slug's redirect dropped. Idempotent, so writer and
   * healer may both run it.
   */
  private async applyState(prevSlug: string, next: Topic): Promise<"ok" | "slug_taken"> {
    const ws = next.workspace_id;
    await this.registerTags(ws, next.tags, next.updated_at);
    const moved = prevSlug !== next.slug;
    if (moved) await this.putRedirect({ _id: redirectKey(ws, prevSlug), workspace_id: ws, slug: prevSlug, topic_id: next.id });
    try {
      // Matching nothing means the document is at this version or beyond already (a healer
      // applied it) or was deleted after that: either way this state took effect.
      await this.c.topics.replaceOne({ _id: next.id, workspace_id: ws, version: { $lt: next.version } }, topicDoc(next));
    } catch (e) {
      if (isDuplicateKey(e)) return "slug_taken";
      throw e;
    }
    if (moved) await this.c.topicRedirects.deleteOne({ _id: redirectKey(ws, next.slug) });
    return "ok";
  }

  private async putRedirect(r: TopicRedirectDoc): Promise<void> {
    try {
      await this.c.topicRedirects.replaceOne({ _id: r._id }, r, { upsert: true });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      await this.c.topicRedirects.replaceOne({ _id: r._id }, r); // a concurrent upsert inserted it first
    }
  }

  /**
   * Rolls the document forward to the newest event's snapshot when that event is newer: the
   * healing of a write cut short after its event. A newest `topic.deleted` finishes the deletion.
   */
  private async rollForward(workspaceId: string, topicId: string): Promise<Healed> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const [doc, newest] = await Promise.all([
        this.c.topics.findOne({ _id: topicId, workspace_id: workspaceId }, VERSION_ONLY),
        this.c.topicEvents.find({ workspace_id: workspaceId, topic_id: topicId }).sort({ version: -1 }).limit(1).next(),
      ]);
      if (newest?.type === "topic.deleted") {
        await this.finishDeletion(workspaceId, topicId, true);
        return "deleted";
      }
      if (!doc) return "gone";
      if (!newest || newest.version <= doc.version || !newest.snapshot) return round === 0 ? "current" : "rolled";
      if ((await this.applyState(doc.slug, newest.snapshot)) === "ok") return "rolled";
      // Its slug was taken meanwhile: that change cannot happen any more; take it back.
      await this.c.topicEvents.deleteOne({ _id: newest._id });
    }
    return "current";
  }

  /**
   * The steps of a deletion after its event: the document, the redirects to it, the snapshots
   * of its events. `known`: a deletion event is known to exist; else it is looked for, and
   * nothing happens without one.
   */
  private async finishDeletion(workspaceId: string, topicId: string, known: boolean): Promise<void> {
    if (!known) {
      const e = await this.c.topicEvents.findOne({ workspace_id: workspaceId, topic_id: topicId, type: "topic.deleted" }, {
        projection: { _id: 1 },
      });
      if (!e) return;
    }
    await this.c.topics.deleteOne({ _id: topicId, workspace_id: workspaceId });
    await this.c.topicRedirects.deleteMany({ workspace_id: workspaceId, topic_id: topicId });
    // Its public link and the inbox entries sharing it (ADR 008).
    await this.c.shareLinks.deleteMany({ workspace_id: workspaceId, topic_id: topicId });
    await this.c.noteShares.deleteMany({ workspace_id: workspaceId, topic_id: topicId });
    await this.c.topicEvents.updateMany({ workspace_id: workspaceId, topic_id: topicId, snapshot: { $ne: null } }, {
      $set: { snapshot: null },
    });
  }

  /** Registers the names not registered yet (no description); a concurrent registration is as good. */
  async registerTags(workspaceId: string, names: readonly string[], at: string): Promise<void> {
    if (names.length === 0) return;
    const known = await this.c.tags.find({ workspace_id: workspaceId, name: { $in: [...names] } }, { projection: { name: 1 } }).toArray();
    const have = new Set(known.map((d) => d.name));
    const missing: TagDoc[] = names
      .filter((n) => !have.has(n))
      .map((name) => ({
        _id: tagKey(workspaceId, name),
        workspace_id: workspaceId,
        name,
        description: null,
        created_at: at,
        updated_at: at,
      }));
    if (missing.length === 0) return;
    try {
      await this.c.tags.insertMany(missing, { ordered: false });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
  }
}

/** Stale as of `f.before` (core/topics/staleness.ts): reviewed, and approved before it. */
function staleClause(f: StaleFilter): Filter<TopicDoc> {
  const stale: Filter<TopicDoc> = { status: "reviewed", "governance.approved_at": { $lt: f.before } };
  return f.is ? stale : { $nor: [stale] };
}
