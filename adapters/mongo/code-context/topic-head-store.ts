import type { KeptHead, ReadVersions, TopicHeadStore } from "../../../core/code-context/ports.ts";
import { keptHeadOf, termWeightsOf } from "../../../core/code-context/topic-head.ts";
import { TOPIC_FIELDS_ONLY, type TopicCollections, toTopic } from "../topics/mod.ts";
import type { Topic } from "../../../core/topics/model.ts";

/**
 * No topic version on MongoDB (as no anchor version, ADR 038): `versions` says so, and code
 * context reads as it did before. `heads` and `termWeights` answer the contract from whole topics.
 */
export class MongoTopicHeadStore implements TopicHeadStore {
  constructor(private readonly c: TopicCollections) {}

  versions(): Promise<ReadVersions | null> {
    return Promise.resolve(null);
  }

  private async byId(workspaceId: string, topicIds: readonly string[], live: boolean): Promise<Map<string, Topic>> {
    const ids = [...new Set(topicIds)];
    if (ids.length === 0) return new Map();
    const docs = await this.c.topics.find({
      workspace_id: workspaceId,
      _id: { $in: ids },
      ...(live ? { status: { $ne: "archived" } } : {}),
    }, { projection: TOPIC_FIELDS_ONLY }).toArray();
    return new Map(docs.map((d) => {
      const t = toTopic(d);
      return [t.id, t];
    }));
  }

  async heads(workspaceId: string, topicIds: readonly string[]): Promise<{ versions: null; heads: Array<KeptHead & { at: number }> }> {
    const found = await this.byId(workspaceId, topicIds, true);
    const heads: Array<KeptHead & { at: number }> = [];
    topicIds.forEach((id, at) => {
      const t = found.get(id);
      if (t) heads.push({ ...keptHeadOf(t), at });
    });
    return { versions: null, heads };
  }

  async termWeights(workspaceId: string, topicIds: readonly string[], terms: readonly string[]) {
    const found = await this.byId(workspaceId, topicIds, false);
    const weights = new Map<string, number[]>();
    for (const [id, t] of found) weights.set(id, termWeightsOf(t, terms));
    return { versions: null, weights };
  }
}
