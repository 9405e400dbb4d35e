import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { Proposal, Relation, Tag, Topic, TopicEvent } from "../../../core/topics/model.ts";
import { TOPIC_TRANSFER_KINDS as K, type TopicRedirect } from "../../../core/topics/transfer.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { TopicCollections } from "./collections.ts";
import { redirectKey, tagDoc, topicDoc, topicEventDoc, toTopic, toTopicEvent } from "./documents.ts";
import { proposalDoc, relationDoc, toProposal, toRelation } from "./proposal-relation-documents.ts";
import type { MongoTopicStore } from "./topic-store.ts";
import { mongoTenantKind } from "./transfer-kind.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;
const as = <T>(d: TransferDoc) => d as unknown as T;

/**
 * Topics' kinds on MongoDB (core/topics/transfer.ts). A topic's document carries what the store
 * derives (terms, list rank, anchor bases: `topicDoc`), and its tags are registered as an insert
 * registers them; tag counts are counted from the topics on every read. A decided proposal gets
 * its decision document (the lock a decision takes), a relation its key, and a workspace that
 * gained relations a new relation marker.
 */
export function mongoTopicTransfer(c: TopicCollections, topics: MongoTopicStore): TransferKind[] {
  return [
    mongoTenantKind(K.tags, c.tags, {
      sort: { _id: 1 },
      toDoc: (d) =>
        asDoc<Tag>({
          workspace_id: d.workspace_id,
          name: d.name,
          description: d.description ?? null,
          created_at: d.created_at,
          updated_at: d.updated_at,
        }),
      stored: (d) => tagDoc(as<Tag>(d)),
    }),
    mongoTenantKind(K.topics, c.topics, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc(toTopic(d)),
      stored: (d) => topicDoc(as<Topic>(d)),
      async after(added) {
        const byWorkspace = new Map<string, { names: Set<string>; at: string }>();
        for (const t of added) {
          const e = byWorkspace.get(t.workspace_id) ?? { names: new Set<string>(), at: t.updated_at };
          for (const n of t.tags) e.names.add(n);
          byWorkspace.set(t.workspace_id, e);
        }
        for (const [ws, e] of byWorkspace) await topics.registerTags(ws, [...e.names].sort(), e.at);
      },
    }),
    mongoTenantKind(K.redirects, c.topicRedirects, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc<TopicRedirect>({ workspace_id: d.workspace_id, slug: d.slug, topic_id: d.topic_id }),
      stored: (d) => {
        const r = as<TopicRedirect>(d);
        return { _id: redirectKey(r.workspace_id, r.slug), workspace_id: r.workspace_id, slug: r.slug, topic_id: r.topic_id };
      },
    }),
    mongoTenantKind(K.events, c.topicEvents, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc(toTopicEvent(d)),
      stored: (d) => topicEventDoc(as<TopicEvent>(d)),
    }),
    mongoTenantKind(K.proposals, c.topicProposals, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc(toProposal(d)),
      stored: (d) => proposalDoc(as<Proposal>(d)),
      async after(added) {
        const decided = added.filter((p) => p.status !== "open" && p.decided_at !== null);
        if (decided.length === 0) return;
        const decisions = decided.map((p) => ({
          _id: p._id,
          workspace_id: p.workspace_id,
          status: p.status as "merged" | "rejected",
          decided_at: p.decided_at!,
          decided_by: p.decided_by,
          merged_version: p.merged_version,
        }));
        try {
          await c.topicProposalDecisions.insertMany(decisions, { ordered: false });
        } catch (e) {
          if (!isDuplicateKey(e)) throw e;
        }
      },
    }),
    mongoTenantKind(K.relations, c.topicRelations, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc(toRelation(d)),
      stored: (d) => relationDoc(as<Relation>(d)),
      async after(added) {
        for (const ws of new Set(added.map((r) => r.workspace_id))) {
          const doc = { _id: ws, workspace_id: ws, marker: crypto.randomUUID() };
          try {
            await c.topicRelationMarkers.replaceOne({ _id: ws }, doc, { upsert: true });
          } catch (e) {
            if (!isDuplicateKey(e)) throw e;
            await c.topicRelationMarkers.replaceOne({ _id: ws }, doc); // a concurrent upsert inserted it first
          }
        }
      },
    }),
  ];
}
