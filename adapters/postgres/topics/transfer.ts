import { anchorBases } from "../../../core/code-context/anchor-base.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { type Relation, relationKey, type Topic } from "../../../core/topics/model.ts";
import { trustRank } from "../../../core/topics/search-rank.ts";
import { topicTerms } from "../../../core/topics/search-terms.ts";
import { TOPIC_TRANSFER_KINDS as K } from "../../../core/topics/transfer.ts";
import type { SqlDriver } from "../driver.ts";
import { type Row, str } from "../row-values.ts";
import { PROPOSAL_COLUMNS, toProposal } from "./proposal-store.ts";
import { RELATION_COLUMNS, toRelation } from "./relation-store.ts";
import { addTagDeltas, applyTagDeltas, EVENT_COLUMNS, type TagDeltas, topicColumns, toTag, toTopic, toTopicEvent } from "./topic-rows.ts";
import { RECORDS, sqlTenantKind, textArray } from "./transfer-kind.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/**
 * Topics' kinds on PostgreSQL/PGlite (core/topics/transfer.ts). A topic's write derives what the
 * store's insert does: trust rank, anchor bases, term arrays and search vector in the row, its
 * `topic_tags` rows and the tag registry's counts; the triggers add its head terms and move the
 * anchor and topic versions. A tag's write counts the topics already carrying it, so the
 * registry is right whichever kind lands first.
 */
export function sqlTopicTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlTenantKind(db, K.tags, {
      table: "tags",
      keyColumns: ["name"],
      columns: "workspace_id, name, description, topic_count, created_at, updated_at",
      toDoc: (r) => asDoc(toTag(str(r.workspace_id), r)),
      write: (tx, docs) => insertTags(tx, docs),
    }),
    sqlTenantKind(db, K.topics, {
      table: "topics",
      keyColumns: ["id"],
      columns: topicColumns("topics"),
      toDoc: (r) => asDoc(toTopic(r)),
      write: (tx, docs) => insertTopics(tx, docs as unknown as Topic[]),
    }),
    sqlTenantKind(db, K.redirects, {
      table: "topic_redirects",
      keyColumns: [`slug collate "C"`],
      columns: "workspace_id, slug, topic_id",
      toDoc: (r) => ({ workspace_id: str(r.workspace_id), slug: str(r.slug), topic_id: str(r.topic_id) }),
      write: async (tx, docs) =>
        (await tx.query(
          `insert into topic_redirects (workspace_id, slug, topic_id)
           select x.workspace_id, x.slug, x.topic_id from ${RECORDS} as x (workspace_id uuid, slug text, topic_id uuid)
           on conflict do nothing returning slug`,
          [JSON.stringify(docs)],
        )).length,
    }),
    sqlTenantKind(db, K.events, {
      table: "topic_events",
      keyColumns: ["id"],
      columns: EVENT_COLUMNS,
      toDoc: (r) => asDoc(toTopicEvent(r)),
      write: async (tx, docs) =>
        (await tx.query(
          `insert into topic_events (${EVENT_COLUMNS})
           select x.workspace_id, x.id, x.topic_id, x.topic_slug, x.repo_id, x.type, x.version, x.actor_id, x.via, x.at,
                  x.data, nullif(x.snapshot, 'null'::jsonb)
           from ${RECORDS} as x (workspace_id uuid, id uuid, topic_id uuid, topic_slug text, repo_id uuid, type text,
             version int, actor_id uuid, via text, at timestamptz, data jsonb, snapshot jsonb)
           on conflict do nothing returning id`,
          [JSON.stringify(docs)],
        )).length,
    }),
    sqlTenantKind(db, K.proposals, {
      table: "topic_proposals",
      keyColumns: ["id"],
      columns: PROPOSAL_COLUMNS,
      toDoc: (r) => asDoc(toProposal(r)),
      write: async (tx, docs) =>
        (await tx.query(
          `insert into topic_proposals (${PROPOSAL_COLUMNS})
           select x.workspace_id, x.id, x.topic_id, x.summary, x.patch, x.base_version, x.status, x.author_id, x.via,
                  x.created_at, x.decided_at, x.decided_by, x.merged_version
           from ${RECORDS} as x (workspace_id uuid, id uuid, topic_id uuid, summary text, patch jsonb, base_version int,
             status text, author_id uuid, via text, created_at timestamptz, decided_at timestamptz, decided_by uuid, merged_version int)
           on conflict do nothing returning id`,
          [JSON.stringify(docs)],
        )).length,
    }),
    sqlTenantKind(db, K.relations, {
      table: "topic_relations",
      keyColumns: ["id"],
      columns: RELATION_COLUMNS,
      toDoc: (r) => asDoc(toRelation(r)),
      write: (tx, docs) => insertRelations(tx, docs as unknown as Relation[]),
    }),
  ];
}

/** Tags with their counts taken from the topics the store holds (none yet when tags come first). */
async function insertTags(tx: SqlDriver, docs: readonly TransferDoc[]): Promise<number> {
  const rows = await tx.query(
    `insert into tags (workspace_id, name, description, topic_count, live_count, created_at, updated_at)
     select x.workspace_id, x.name, x.description,
            (select count(*) from topics t where t.workspace_id = x.workspace_id and t.tags @> array[x.name]::text[]),
            (select count(*) from topics t where t.workspace_id = x.workspace_id and t.tags @> array[x.name]::text[] and t.status <> 'archived'),
            x.created_at, x.updated_at
     from ${RECORDS} as x (workspace_id uuid, name text, description text, created_at timestamptz, updated_at timestamptz)
     order by x.workspace_id, x.name collate "C"
     on conflict do nothing returning name`,
    [JSON.stringify(docs)],
  );
  return rows.length;
}

/**
 * Topics as stored, with the derived columns of `insertTopicRow` (topic-rows.ts) and, in the same
 * statement, their `topic_tags` rows; then the tag registry's counts of the topics added.
 */
async function insertTopics(tx: SqlDriver, topics: readonly Topic[]): Promise<number> {
  const records = topics.map((t) => {
    const terms = topicTerms(t);
    return {
      ...t,
      authoritative: t.governance.authoritative,
      approved_by: t.governance.approved_by,
      approved_at: t.governance.approved_at,
      trust_rank: trustRank(t.status),
      anchor_bases: anchorBases(t.anchors),
      title_terms: terms.title,
      tag_terms: terms.tags,
      body_terms: terms.body,
    };
  });
  const rows = await tx.query<Row>(
    `with x as (
       select * from ${RECORDS} as x (workspace_id uuid, id uuid, slug text, title text, body text, tags jsonb, area_id uuid,
         repo_id uuid, anchors jsonb, kind text, origin text, source_url text, owner_id uuid, author_id uuid, status text,
         authoritative boolean, approved_by uuid, approved_at timestamptz, approved_via text, drift jsonb, merged_into uuid,
         merged_from jsonb, version int, created_at timestamptz, updated_at timestamptz, trust_rank smallint,
         anchor_bases jsonb, title_terms jsonb, tag_terms jsonb, body_terms jsonb)
     ), added as (
       insert into topics (workspace_id, id, slug, title, body, tags, area_id, repo_id, anchors, kind, origin, source_url,
         owner_id, author_id, status, authoritative, approved_by, approved_at, approved_via, drift, merged_into, merged_from,
         version, created_at, updated_at, trust_rank, anchor_bases, title_terms, tag_terms, search)
       select x.workspace_id, x.id, x.slug, x.title, x.body, ${textArray("x.tags")}, x.area_id, x.repo_id, ${textArray("x.anchors")},
         x.kind, x.origin, x.source_url, x.owner_id, x.author_id, x.status, x.authoritative, x.approved_by, x.approved_at,
         x.approved_via, nullif(x.drift, 'null'::jsonb), x.merged_into, ${textArray("x.merged_from")}::uuid[], x.version,
         x.created_at, x.updated_at, x.trust_rank, ${textArray("x.anchor_bases")}, ${textArray("x.title_terms")},
         ${textArray("x.tag_terms")},
         setweight(array_to_tsvector(${textArray("x.title_terms")}), 'A') || setweight(array_to_tsvector(${
      textArray("x.tag_terms")
    }), 'B') || setweight(array_to_tsvector(${textArray("x.body_terms")}), 'C')
       from x
       on conflict do nothing
       returning workspace_id, id, tags, status, drifted, trust_rank, updated_at
     ), listed as (
       insert into topic_tags (workspace_id, tag, topic_id, drifted, trust_rank, updated_at)
       select a.workspace_id, u.tag, a.id, a.drifted, a.trust_rank, a.updated_at
       from added a, unnest(a.tags) as u (tag)
       where a.status <> 'archived'
       on conflict do nothing
     )
     select workspace_id, tags, status, updated_at from added`,
    [JSON.stringify(records)],
  );
  const byWorkspace = new Map<string, { deltas: TagDeltas; at: string }>();
  for (const r of rows) {
    const ws = str(r.workspace_id);
    const entry = byWorkspace.get(ws) ?? { deltas: new Map(), at: new Date(r.updated_at as string | Date).toISOString() };
    addTagDeltas(entry.deltas, null, { tags: r.tags as string[], status: str(r.status) });
    byWorkspace.set(ws, entry);
  }
  for (const [ws, { deltas, at }] of byWorkspace) await applyTagDeltas(tx, ws, deltas, at);
  return rows.length;
}

/** Relations with their uniqueness key; each workspace that gained one moves its relation marker. */
async function insertRelations(tx: SqlDriver, relations: readonly Relation[]): Promise<number> {
  const rows = await tx.query<Row>(
    `insert into topic_relations (${RELATION_COLUMNS}, key)
     select x.workspace_id, x.id, x.from_topic_id, x.to_topic_id, x.type, x.created_at, x.created_by, x.key
     from ${RECORDS} as x (workspace_id uuid, id uuid, from_topic_id uuid, to_topic_id uuid, type text,
       created_at timestamptz, created_by uuid, key text)
     on conflict do nothing returning workspace_id`,
    [JSON.stringify(relations.map((r) => ({ ...r, key: relationKey(r.from_topic_id, r.to_topic_id, r.type) })))],
  );
  const workspaces = [...new Set(rows.map((r) => str(r.workspace_id)))].sort();
  if (workspaces.length > 0) {
    await tx.query(
      `insert into topic_relation_markers (workspace_id, marker) select w, 1 from unnest($1::uuid[]) as w
       on conflict (workspace_id) do update set marker = topic_relation_markers.marker + 1`,
      [workspaces],
    );
  }
  return rows.length;
}
