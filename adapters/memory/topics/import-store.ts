import { relationKey } from "../../../core/topics/model.ts";
import type { TopicImportBatch, TopicImportRefusal, TopicImportStore } from "../../../core/topics/ports.ts";
import { copy, inWorkspace } from "../rows.ts";
import type { TopicTables } from "./tables.ts";
import { registerTags } from "./topic-store.ts";

/**
 * The reference TopicImportStore: every check first, then every write, with no await in between,
 * so a batch is applied whole or not at all, as a transaction would. The writes of an import keep
 * slugs and anchors as they are (new topics have none), so no redirect or anchor version moves,
 * except that a new topic takes over a redirect of its slug, as `insert` does.
 */
export class MemoryTopicImportStore implements TopicImportStore {
  constructor(private t: TopicTables) {}

  async apply(b: TopicImportBatch): Promise<"ok" | TopicImportRefusal> {
    const ws = b.workspaceId;
    const live = new Set(inWorkspace(this.t.topics, ws).map((x) => x.slug));
    for (const w of b.inserts) {
      if (live.has(w.topic.slug)) return { refused: "slug_taken", slug: w.topic.slug };
      live.add(w.topic.slug);
    }
    for (const w of b.updates) {
      const cur = this.t.topics.get(w.topic.id);
      if (!cur || cur.workspace_id !== ws) return { refused: "topic_gone", topicId: w.topic.id };
      if (cur.version !== w.topic.version - 1) return { refused: "version_conflict", slug: w.topic.slug };
    }
    const ids = new Set(b.inserts.map((w) => w.topic.id));
    for (const r of b.relations) {
      for (const id of [r.from_topic_id, r.to_topic_id]) {
        if (!ids.has(id) && this.t.topics.get(id)?.workspace_id !== ws) return { refused: "topic_gone", topicId: id };
      }
    }
    for (const x of b.proposals) {
      if (this.t.topics.get(x.topic_id)?.workspace_id !== ws) return { refused: "topic_gone", topicId: x.topic_id };
    }

    for (const w of [...b.inserts, ...b.updates]) {
      this.t.topicRedirects.delete(`${ws}:${w.topic.slug}`);
      this.t.topics.set(w.topic.id, copy(w.topic));
      this.t.topicEvents.set(w.event.id, copy(w.event));
      registerTags(this.t, ws, w.topic.tags, w.topic.updated_at);
    }
    for (const x of b.proposals) this.t.proposals.set(x.id, copy(x));
    const keys = new Set(inWorkspace(this.t.relations, ws).map((r) => relationKey(r.from_topic_id, r.to_topic_id, r.type)));
    let added = 0;
    for (const r of b.relations) {
      const key = relationKey(r.from_topic_id, r.to_topic_id, r.type);
      if (keys.has(key)) continue;
      keys.add(key);
      this.t.relations.set(r.id, copy(r));
      added++;
    }
    if (added > 0) this.t.relationMarkers.set(ws, (this.t.relationMarkers.get(ws) ?? 0) + 1);
    return "ok";
  }
}
