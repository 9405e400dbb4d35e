import type { AnchorIndexStore, TopicAnchors, TopicHead } from "../../../core/code-context/ports.ts";
import { compareMatched, topicHead } from "../../../core/code-context/match-order.ts";
import type { ReadOptions } from "../../../core/topics/ports.ts";
import type { Topic } from "../../../core/topics/model.ts";
import type { TopicTables } from "../topics/mod.ts";
import { copy, inWorkspace } from "../rows.ts";

/** The reference `AnchorIndexStore`: the version is the counter `MemoryTopicStore` moves with the anchors. */
export class MemoryAnchorIndexStore implements AnchorIndexStore {
  constructor(private t: TopicTables) {}

  async load(workspaceId: string): Promise<{ version: string; topics: TopicAnchors[] }> {
    const topics = inWorkspace(this.t.topics, workspaceId)
      .filter((x) => x.anchors.length > 0)
      .map((x) => ({ id: x.id, repo_id: x.repo_id, anchors: [...x.anchors] }));
    return { version: this.version(workspaceId), topics };
  }

  async read(workspaceId: string, topicIds: readonly string[], _options?: ReadOptions): Promise<{ version: string; topics: Topic[] }> {
    const topics: Topic[] = [];
    for (const id of new Set(topicIds)) {
      const topic = this.t.topics.get(id);
      if (topic && topic.workspace_id === workspaceId && topic.status !== "archived") topics.push(copy(topic));
    }
    return { version: this.version(workspaceId), topics };
  }

  async heads(workspaceId: string, topicIds: readonly string[], staleBefore: string): Promise<{ version: string; topics: TopicHead[] }> {
    const { version, topics } = await this.read(workspaceId, topicIds);
    const at = new Map<string, number>();
    topicIds.forEach((id, i) => at.has(id) || at.set(id, i));
    return { version, topics: topics.sort(compareMatched).map((t) => topicHead(t, staleBefore, at.get(t.id)!)) };
  }

  private version(workspaceId: string): string {
    return String(this.t.anchorVersions.get(workspaceId) ?? 0);
  }
}
