/**
 * The tag registry on MongoDB. A tag is registered by one insert (`_id` = `<workspace_id>:<name>`,
 * so concurrent registrations of a name make one); topic writes register the tags they carry
 * (topic-store.ts). Counts are not stored: one aggregation over the workspace's topics
 * (`$match`, `$unwind`, `$group`, all on FerretDB v1) joined here with the registry, so a list
 * holds at most the workspace's tags in memory.
 *
 * `retag` rewrites the topics carrying the tag one by one through the topics' compare-and-set
 * (a topic changed meanwhile is re-read and rewritten), then moves the registry entry: the new
 * name is registered before the rewrites (taking the old one's description and dates, as the
 * memory store does), the old name is deleted last. Interrupted, the old name is still
 * registered and still carried by the topics not yet rewritten: calling it again completes it.
 */
import type { TopicCollections } from "./collections.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Tag, Topic } from "../../../core/topics/model.ts";
import type { TagView } from "../../../core/topics/dto.ts";
import type { TagStore, TopicWrite } from "../../../core/topics/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { backoff } from "../retry.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { isoAt, type MongoStoreOptions } from "../options.ts";
import { type TagDoc, tagDoc, tagKey, TOPIC_FIELDS_ONLY, toTagView, toTopic } from "./documents.ts";
import type { MongoTopicStore } from "./topic-store.ts";

/** Topics read per round of a retag (ids only). */
const RETAG_BATCH = 100;
/** Attempts to rewrite one topic that keeps changing under a retag. */
const RETAG_ATTEMPTS = 20;

export class MongoTagStore implements TagStore {
  constructor(
    private readonly c: TopicCollections,
    private readonly topics: MongoTopicStore,
    private readonly o: Pick<MongoStoreOptions, "now">,
  ) {}

  /** Topics per tag of a workspace, archived ones included. */
  private async counts(workspaceId: string): Promise<Map<string, number>> {
    const rows = await this.c.topics
      .aggregate<{ _id: string; n: number }>([
        // No `$project` of the tags first: it makes FerretDB v1 drop the connection. MongoDB
        // reads only the fields a pipeline uses anyway.
        { $match: { workspace_id: workspaceId } },
        { $unwind: "$tags" },
        { $group: { _id: "$tags", n: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  private count(workspaceId: string, name: string): Promise<number> {
    return this.c.topics.countDocuments({ workspace_id: workspaceId, tags: name });
  }

  async list(workspaceId: string, page: OffsetPage): Promise<Listed<TagView>> {
    const [registry, counts] = await Promise.all([this.c.tags.find({ workspace_id: workspaceId }).toArray(), this.counts(workspaceId)]);
    const rows = registry
      .map((d) => toTagView(d, counts.get(d.name) ?? 0))
      .sort((a, b) => b.topic_count - a.topic_count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const offset = Math.max(0, Math.trunc(page.offset));
    const limit = Math.max(0, Math.trunc(page.limit));
    return { items: rows.slice(offset, offset + limit), total: rows.length };
  }

  async get(workspaceId: string, name: string): Promise<TagView | null> {
    const [d, n] = await Promise.all([this.c.tags.findOne({ _id: tagKey(workspaceId, name) }), this.count(workspaceId, name)]);
    return d && d.workspace_id === workspaceId ? toTagView(d, n) : null;
  }

  async upsert(tag: Tag): Promise<{ tag: TagView; created: boolean }> {
    let created = true;
    try {
      await this.c.tags.insertOne(tagDoc(tag));
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      created = false;
      if (tag.description !== null) {
        await this.c.tags.updateOne(
          { _id: tagKey(tag.workspace_id, tag.name) },
          { $set: { description: tag.description, updated_at: tag.updated_at } },
        );
      }
    }
    const view = await this.get(tag.workspace_id, tag.name);
    // Deleted again in between (a concurrent retag): answer with what was asked for.
    return { tag: view ?? toTagView(tagDoc(tag), 0), created };
  }

  async describe(workspaceId: string, name: string, description: string | null, at: string): Promise<TagView | null> {
    const r = await this.c.tags.updateOne({ _id: tagKey(workspaceId, name), workspace_id: workspaceId }, {
      $set: { description, updated_at: at },
    });
    return r.matchedCount === 0 ? null : this.get(workspaceId, name);
  }

  async retag(workspaceId: string, from: string, to: string | null, rewrite: (topic: Topic) => TopicWrite): Promise<number | null> {
    const old = await this.c.tags.findOne({ _id: tagKey(workspaceId, from), workspace_id: workspaceId });
    if (!old) return null;
    if (to !== null && to !== from) await this.registerAs(old, to);
    let rewritten = 0;
    const skipped: string[] = []; // topics that kept changing or cannot take the rewrite
    for (;;) {
      const batch = await this.c.topics
        .find({ workspace_id: workspaceId, tags: from, ...(skipped.length ? { _id: { $nin: skipped } } : {}) }, { projection: { _id: 1 } })
        .limit(RETAG_BATCH)
        .toArray();
      if (batch.length === 0) break;
      for (const { _id } of batch) {
        const r = await this.rewriteOne(workspaceId, _id, from, rewrite);
        if (r === "rewritten") rewritten++;
        else if (r === "skipped") skipped.push(_id);
      }
    }
    if (to !== null && to !== from) {
      const target = await this.c.tags.findOne({ _id: tagKey(workspaceId, to) });
      if (target && target.description === null && old.description !== null) {
        await this.c.tags.updateOne({ _id: target._id }, { $set: { description: old.description } });
      }
    }
    await this.c.tags.deleteOne({ _id: old._id });
    return rewritten;
  }

  /** Registers `to` as a copy of `from`'s entry unless `to` is registered already. */
  private async registerAs(old: TagDoc, to: string): Promise<void> {
    try {
      await this.c.tags.insertOne({ ...old, _id: tagKey(old.workspace_id, to), name: to, updated_at: isoAt(this.o.now()) });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
  }

  /** Rewrites one topic through the compare-and-set, re-reading it on a conflict. */
  private async rewriteOne(
    workspaceId: string,
    topicId: string,
    from: string,
    rewrite: (topic: Topic) => TopicWrite,
  ): Promise<"rewritten" | "gone" | "skipped"> {
    for (let attempt = 0; attempt < RETAG_ATTEMPTS; attempt++) {
      const d = await this.c.topics.findOne({ _id: topicId, workspace_id: workspaceId }, { projection: TOPIC_FIELDS_ONLY });
      if (!d || !d.tags.includes(from)) return "gone";
      const w = rewrite(toTopic(d));
      const r = await this.topics.write(w);
      if (r === "ok") return "rewritten";
      if (r === "not_found") return "gone";
      if (r === "slug_taken") return "skipped"; // a rewrite that moves the topic: not a retag
      await backoff(attempt);
    }
    return "skipped";
  }
}
