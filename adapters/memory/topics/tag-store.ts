import type { TopicTables } from "./tables.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Tag, Topic } from "../../../core/topics/model.ts";
import type { TagView } from "../../../core/topics/dto.ts";
import type { TagStore, TopicWrite } from "../../../core/topics/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { inWorkspace, page } from "../rows.ts";
import { registerTags } from "./topic-store.ts";

export class MemoryTagStore implements TagStore {
  constructor(private t: TopicTables) {}

  private counts(workspaceId: string): Map<string, number> {
    const n = new Map<string, number>();
    for (const topic of inWorkspace(this.t.topics, workspaceId)) for (const tag of topic.tags) n.set(tag, (n.get(tag) ?? 0) + 1);
    return n;
  }

  private view(tag: Tag, counts: Map<string, number>): TagView {
    return {
      name: tag.name,
      description: tag.description,
      topic_count: counts.get(tag.name) ?? 0,
      created_at: tag.created_at,
      updated_at: tag.updated_at,
    };
  }

  async list(workspaceId: string, p: OffsetPage): Promise<Listed<TagView>> {
    const counts = this.counts(workspaceId);
    const rows = [...this.t.tags.values()]
      .filter((x) => x.workspace_id === workspaceId)
      .map((x) => this.view(x, counts))
      .sort((a, b) => b.topic_count - a.topic_count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return page(rows, p.offset, p.limit);
  }

  async get(workspaceId: string, name: string): Promise<TagView | null> {
    const tag = this.t.tags.get(`${workspaceId}:${name}`);
    return tag ? this.view(tag, this.counts(workspaceId)) : null;
  }

  async upsert(tag: Tag): Promise<{ tag: TagView; created: boolean }> {
    const key = `${tag.workspace_id}:${tag.name}`;
    const cur = this.t.tags.get(key);
    if (!cur) this.t.tags.set(key, { ...tag });
    else if (tag.description !== null) this.t.tags.set(key, { ...cur, description: tag.description, updated_at: tag.updated_at });
    return { tag: (await this.get(tag.workspace_id, tag.name))!, created: !cur };
  }

  async describe(workspaceId: string, name: string, description: string | null, at: string): Promise<TagView | null> {
    const key = `${workspaceId}:${name}`;
    const cur = this.t.tags.get(key);
    if (!cur) return null;
    this.t.tags.set(key, { ...cur, description, updated_at: at });
    return this.get(workspaceId, name);
  }

  async retag(workspaceId: string, from: string, to: string | null, rewrite: (topic: Topic) => TopicWrite): Promise<number | null> {
    const fromKey = `${workspaceId}:${from}`;
    const old = this.t.tags.get(fromKey);
    if (!old) return null;
    let n = 0;
    for (const topic of inWorkspace(this.t.topics, workspaceId)) {
      if (!topic.tags.includes(from)) continue;
      const w = rewrite(structuredClone(topic));
      this.t.topics.set(w.topic.id, structuredClone(w.topic));
      this.t.topicEvents.set(w.event.id, structuredClone(w.event));
      n++;
    }
    if (to !== null) {
      const toKey = `${workspaceId}:${to}`;
      const existing = this.t.tags.get(toKey);
      if (!existing) this.t.tags.set(toKey, { ...old, name: to, updated_at: new Date().toISOString() });
      else if (existing.description === null && old.description !== null) {
        this.t.tags.set(toKey, { ...existing, description: old.description });
      }
      registerTags(this.t, workspaceId, [to], old.updated_at);
    }
    this.t.tags.delete(fromKey);
    return n;
  }
}
