import { TOPIC_TRANSFER_KINDS as K, type TopicRedirect } from "../../../core/topics/transfer.ts";
import { type Proposal, type Relation, relationKey, type Tag, type Topic, type TopicEvent } from "../../../core/topics/model.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { inWorkspace } from "../rows.ts";
import type { TopicTables } from "./tables.ts";
import { registerTags } from "./topic-store.ts";
import { asTransferDoc, memoryTenantKind } from "./transfer-kind.ts";

/**
 * Topics' kinds over the memory tables (core/topics/transfer.ts). Tag counts are counted from the
 * topics on every read here, so only the anchor version (moved as an insert with anchors moves
 * it) and the relation marker are derived state a write keeps.
 */
export function memoryTopicTransfer(t: TopicTables): TransferKind[] {
  const bySlug = (ws: string, slug: string) => inWorkspace(t.topics, ws).some((x) => x.slug === slug);
  return [
    memoryTenantKind(K.tags, () => [...t.tags.values()].map(asTransferDoc), (d) => {
      const tag = d as unknown as Tag;
      const key = `${tag.workspace_id}:${tag.name}`;
      if (t.tags.has(key)) return false;
      t.tags.set(key, tag);
      return true;
    }),
    memoryTenantKind(K.topics, () => [...t.topics.values()].map(asTransferDoc), (d) => {
      const topic = d as unknown as Topic;
      if (t.topics.has(topic.id) || bySlug(topic.workspace_id, topic.slug)) return false;
      t.topics.set(topic.id, topic);
      if (topic.anchors.length > 0) t.anchorVersions.set(topic.workspace_id, (t.anchorVersions.get(topic.workspace_id) ?? 0) + 1);
      registerTags(t, topic.workspace_id, topic.tags, topic.updated_at);
      return true;
    }),
    memoryTenantKind(K.redirects, () => {
      const out: TopicRedirect[] = [];
      for (const [key, topicId] of t.topicRedirects) {
        const at = key.indexOf(":");
        out.push({ workspace_id: key.slice(0, at), slug: key.slice(at + 1), topic_id: topicId });
      }
      return out.map(asTransferDoc);
    }, (d) => {
      const r = d as unknown as TopicRedirect;
      const key = `${r.workspace_id}:${r.slug}`;
      if (t.topicRedirects.has(key)) return false;
      t.topicRedirects.set(key, r.topic_id);
      return true;
    }),
    memoryTenantKind(K.events, () => [...t.topicEvents.values()].map(asTransferDoc), (d) => {
      const e = d as unknown as TopicEvent;
      if (t.topicEvents.has(e.id)) return false;
      for (const x of inWorkspace(t.topicEvents, e.workspace_id)) if (x.topic_id === e.topic_id && x.version === e.version) return false;
      t.topicEvents.set(e.id, e);
      return true;
    }),
    memoryTenantKind(K.proposals, () => [...t.proposals.values()].map(asTransferDoc), (d) => {
      const p = d as unknown as Proposal;
      if (t.proposals.has(p.id)) return false;
      t.proposals.set(p.id, p);
      return true;
    }),
    memoryTenantKind(K.relations, () => [...t.relations.values()].map(asTransferDoc), (d) => {
      const r = d as unknown as Relation;
      const key = relationKey(r.from_topic_id, r.to_topic_id, r.type);
      if (t.relations.has(r.id)) return false;
      for (const x of inWorkspace(t.relations, r.workspace_id)) {
        if (relationKey(x.from_topic_id, x.to_topic_id, x.type) === key) return false;
      }
      t.relations.set(r.id, r);
      // The graph's ETag must move as a relation's insert moves it.
      t.relationMarkers.set(r.workspace_id, (t.relationMarkers.get(r.workspace_id) ?? 0) + 1);
      return true;
    }),
  ];
}
