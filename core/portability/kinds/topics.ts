import type { TransferDoc } from "../../kernel/store-transfer.ts";
import {
  type Proposal,
  type Relation,
  type Tag,
  type Topic,
  TOPIC_TRANSFER_KINDS,
  type TopicEvent,
  type TopicRedirect,
} from "../../topics/mod.ts";
import { type ShareLink, SHARING_TRANSFER_KINDS } from "../../sharing/mod.ts";
import type { ArchiveDoc, ArchiveKindIo, ArchiveKindIoTable } from "../kind-io.ts";
import type { ArchiveLine } from "../lines.ts";
import type { ArchiveKind } from "../model.ts";
import { toArchiveLine } from "../to-line.ts";

/** The stores a kind's lines are read from (kind-io.ts names them; no import of the root's types here). */
type Stores = Parameters<ArchiveKindIo<"tags">["lines"]>[0];

/** The workspace's documents of one transfer kind, in its key order. */
async function* docsOf<T>(stores: Stores, kind: string, workspaceId: string): AsyncIterable<T> {
  const k = stores.transfer.kinds.find((x) => x.name === kind);
  if (!k) throw new Error(`the store has no transfer kind ${kind}`);
  for await (const d of k.read({ workspaceId })) yield d as unknown as T;
}

/** An archive kind whose lines are, one for one, the documents of one transfer kind. */
function oneToOne<K extends ArchiveKind, T>(
  kind: string,
  toLine: (doc: T) => ArchiveLine<K> | null,
  toDoc: (line: ArchiveLine<K>, workspaceId: string) => T | null,
): ArchiveKindIo<K> {
  return {
    async *lines(stores, workspaceId) {
      for await (const d of docsOf<T>(stores, kind, workspaceId)) {
        const line = toLine(d);
        if (line) yield line;
      }
    },
    toDocs(line, ctx): ArchiveDoc[] {
      const doc = toDoc(line, ctx.workspaceId);
      return doc === null ? [] : [{ kind, doc: doc as unknown as TransferDoc }];
    },
  };
}

/** A topic line as the stored topic of `workspaceId` (a snapshot's too: stores keep it whole). */
const topicOf = (l: ArchiveLine<"topics">, workspaceId: string): Topic => ({
  id: l.id,
  workspace_id: workspaceId,
  slug: l.slug,
  title: l.title,
  body: l.body,
  tags: l.tags,
  area_id: l.area_id,
  repo_id: l.repo_id,
  anchors: l.anchors,
  kind: l.kind,
  origin: l.origin,
  source_url: l.source_url,
  owner_id: l.owner_id,
  author_id: l.author_id,
  status: l.status,
  governance: { authoritative: l.governance.authoritative, approved_by: l.governance.approved_by, approved_at: l.governance.approved_at },
  approved_via: l.approved_via,
  drift: l.drift && { commit: l.drift.commit, files: l.drift.files, at: l.drift.at },
  merged_into: l.merged_into,
  merged_from: l.merged_from,
  version: l.version,
  created_at: l.created_at,
  updated_at: l.updated_at,
});

const K = TOPIC_TRANSFER_KINDS;

/**
 * The archive kinds of topics and sharing (ADR 065, ADR 071): each line is one document of a
 * topics or sharing transfer kind, field for field, with the target workspace's id. An event's
 * snapshot is the topic as stored. A revoked share link (no hash) is not stored by any store, so
 * it becomes no document; an active one keeps its token's hash.
 */
export const topicsKindIo: ArchiveKindIoTable = {
  tags: oneToOne<"tags", Tag>(K.tags.name, (t) => toArchiveLine.tags(t), (l, ws) => ({
    workspace_id: ws,
    name: l.name,
    description: l.description,
    created_at: l.created_at,
    updated_at: l.updated_at,
  })),
  topics: oneToOne<"topics", Topic>(K.topics.name, (t) => toArchiveLine.topics(t), topicOf),
  topic_redirects: oneToOne<"topic_redirects", TopicRedirect>(
    K.redirects.name,
    (r) => toArchiveLine.topic_redirects(r.slug, r.topic_id),
    (l, ws) => ({ workspace_id: ws, slug: l.slug, topic_id: l.topic_id }),
  ),
  topic_history: oneToOne<"topic_history", TopicEvent>(K.events.name, (e) => toArchiveLine.topic_history(e), (l, ws) => ({
    id: l.id,
    workspace_id: ws,
    topic_id: l.topic_id,
    topic_slug: l.topic_slug,
    repo_id: l.repo_id,
    type: l.type,
    version: l.version,
    actor_id: l.actor_id,
    via: l.via,
    at: l.at,
    data: l.data,
    snapshot: l.snapshot && topicOf(l.snapshot, ws),
  })),
  proposals: oneToOne<"proposals", Proposal>(K.proposals.name, (p) => toArchiveLine.proposals(p), (l, ws) => ({
    id: l.id,
    workspace_id: ws,
    topic_id: l.topic_id,
    summary: l.summary,
    patch: l.patch,
    base_version: l.base_version,
    status: l.status,
    author_id: l.author_id,
    via: l.via,
    created_at: l.created_at,
    decided_at: l.decided_at,
    decided_by: l.decided_by,
    merged_version: l.merged_version,
  })),
  relations: oneToOne<"relations", Relation>(K.relations.name, (r) => toArchiveLine.relations(r), (l, ws) => ({
    id: l.id,
    workspace_id: ws,
    from_topic_id: l.from_topic_id,
    to_topic_id: l.to_topic_id,
    type: l.type,
    created_at: l.created_at,
    created_by: l.created_by,
  })),
  share_links: oneToOne<"share_links", ShareLink>(
    SHARING_TRANSFER_KINDS.shareLinks.name,
    (l) => toArchiveLine.share_links(l),
    (l, ws) =>
      l.token_hash === null || l.revoked_at !== null ? null : {
        id: l.id,
        workspace_id: ws,
        topic_id: l.topic_id,
        token_hash: l.token_hash,
        created_by: l.created_by,
        created_at: l.created_at,
      },
  ),
};
