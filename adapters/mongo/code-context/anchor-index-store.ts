import type { AnchorIndexStore, TopicHead } from "../../../core/code-context/ports.ts";
import { compareMatched, topicHead } from "../../../core/code-context/match-order.ts";
import type { ReadOptions } from "../../../core/topics/ports.ts";
import type { Topic } from "../../../core/topics/model.ts";
import { TOPIC_FIELDS_ONLY, type TopicCollections, toTopic } from "../topics/mod.ts";

/**
 * No anchor version on MongoDB (ADR 038): a version that moves "in the same transaction" as a
 * topic write needs a transaction or an atomic counter, and FerretDB has neither (ADR 005). So
 * `load` says so, and match-files, drift and retrieve ask `TopicStore.anchoredAt` on every
 * request here, as before. `read` answers all the same, for the contract.
 */
export class MongoAnchorIndexStore implements AnchorIndexStore {
  constructor(private readonly c: TopicCollections) {}

  load(): Promise<null> {
    return Promise.resolve(null);
  }

  async read(workspaceId: string, topicIds: readonly string[], _options?: ReadOptions): Promise<{ version: string; topics: Topic[] }> {
    const ids = [...new Set(topicIds)];
    if (ids.length === 0) return { version: "", topics: [] };
    const docs = await this.c.topics.find({ workspace_id: workspaceId, _id: { $in: ids }, status: { $ne: "archived" } }, {
      projection: TOPIC_FIELDS_ONLY,
    }).toArray();
    return { version: "", topics: docs.map(toTopic) };
  }

  /** `read`, ordered and cut down here: MongoDB takes the reference path, so this only answers the contract. */
  async heads(workspaceId: string, topicIds: readonly string[], staleBefore: string): Promise<{ version: string; topics: TopicHead[] }> {
    const { version, topics } = await this.read(workspaceId, topicIds);
    const at = new Map<string, number>();
    topicIds.forEach((id, i) => at.has(id) || at.set(id, i));
    return { version, topics: topics.sort(compareMatched).map((t) => topicHead(t, staleBefore, at.get(t.id)!)) };
  }
}
