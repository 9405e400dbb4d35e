import type { KeptHead, ReadVersions, TopicHeadStore } from "../../../core/code-context/ports.ts";
import { keptHeadOf, termWeightsOf } from "../../../core/code-context/topic-head.ts";
import type { TopicTables } from "../topics/mod.ts";

/**
 * The reference `TopicHeadStore`. No topic version here (ADR 048): `versions` says so, and code
 * context reads as it did before; `heads` and `termWeights` answer the contract.
 */
export class MemoryTopicHeadStore implements TopicHeadStore {
  constructor(private t: TopicTables) {}

  versions(): Promise<ReadVersions | null> {
    return Promise.resolve(null);
  }

  async heads(workspaceId: string, topicIds: readonly string[]): Promise<{ versions: null; heads: Array<KeptHead & { at: number }> }> {
    const heads: Array<KeptHead & { at: number }> = [];
    topicIds.forEach((id, at) => {
      const t = this.t.topics.get(id);
      if (t && t.workspace_id === workspaceId && t.status !== "archived") heads.push({ ...keptHeadOf(t), at });
    });
    return { versions: null, heads };
  }

  async termWeights(workspaceId: string, topicIds: readonly string[], terms: readonly string[]) {
    const weights = new Map<string, number[]>();
    for (const id of topicIds) {
      const t = this.t.topics.get(id);
      if (t && t.workspace_id === workspaceId) weights.set(id, termWeightsOf(t, terms));
    }
    return { versions: null, weights };
  }
}
