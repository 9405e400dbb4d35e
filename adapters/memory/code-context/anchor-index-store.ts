import type { AnchorIndexStore, TopicAnchors } from "../../../core/code-context/ports.ts";
import type { ReadOptions } from "../../../core/topics/ports.ts";
import type { Topic } from "../../../core/topics/model.ts";
import type { TopicTables } from "../topics/tables.ts";
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

  private version(workspaceId: string): string {
    return String(this.t.anchorVersions.get(workspaceId) ?? 0);
  }
}
