import { isUuid } from "../../../core/kernel/ids.ts";
import type { KeptHead, ReadVersions, TopicHeadStore } from "../../../core/code-context/ports.ts";
import { FIELD_WEIGHT } from "../../../core/topics/mod.ts";
import { iso, isoOrNull } from "../driver.ts";
import type { SqlDriver } from "../driver.ts";
import { type Row, str } from "../row-values.ts";
import { headsAt, uuidPositions } from "./anchor-index-store.ts";
import { TOPIC_VERSION } from "../topics/mod.ts";

/**
 * The workspace's anchor version (migrations/022) and topic version (migrations/030) as one row:
 * two primary-key reads, joined by the statements below so that rows and versions come from one
 * snapshot. "0" before the first write that moves each.
 */
const VERSIONS = `(select coalesce((select version from anchor_versions where workspace_id = $1), 0)::text as anchor_version,
    ${TOPIC_VERSION} as topic_version) v`;

/** The versions alone: what a request whose kept heads still hold reads, and nothing else. */
export const READ_VERSIONS = `select v.anchor_version, v.topic_version from ${VERSIONS}`;

/**
 * Heads of topics by primary key (`topics_pkey`), with the versions; each with its position in the
 * list sent (`n`), the ids as one comma-separated text (see READ_HEADS, anchor-index-store.ts).
 */
export const READ_KEPT_HEADS = `select v.anchor_version, v.topic_version, p.n::int4 as n, t.slug, t.title, t.status, t.drifted,
    t.approved_via, t.approved_at, t.updated_at, t.version
  from ${VERSIONS}
  left join (unnest(string_to_array($2, ',')::uuid[]) with ordinality as p(id, n)
    join topics t on t.workspace_id = $1 and t.id = p.id and t.status <> 'archived') on true`;

/**
 * Per topic (by `topics_pkey`), each term's field weight, as `scoreTopic` weighs it: the stored
 * `title_terms` and `tag_terms` first, else the body's terms, which only `search` keeps
 * (`array_to_tsvector` of `topicTerms(t).body`, with title and tags: a term in none of those two
 * that `search` holds is in the body). `search` is read once per row (`tsvector_to_array`), not
 * once per term; no body is read.
 */
export const READ_TERM_WEIGHTS = `select v.anchor_version, v.topic_version, p.n::int4 as n,
    (select array_agg(case when u.q = any(t.title_terms) then ${FIELD_WEIGHT.title}
                           when u.q = any(t.tag_terms) then ${FIELD_WEIGHT.tags}
                           when u.q = any(l.lexemes) then ${FIELD_WEIGHT.body} else 0 end order by u.k)
       from unnest($3::text[]) with ordinality as u(q, k)) as weights
  from ${VERSIONS}
  left join (unnest(string_to_array($2, ',')::uuid[]) with ordinality as p(id, n)
    join topics t on t.workspace_id = $1 and t.id = p.id
    cross join lateral (select tsvector_to_array(t.search) as lexemes) l) on true`;

const versionsOf = (r: Row): ReadVersions => ({ anchors: str(r.anchor_version), topics: str(r.topic_version) });

export class PostgresTopicHeadStore implements TopicHeadStore {
  constructor(private readonly db: SqlDriver) {}

  async versions(workspaceId: string): Promise<ReadVersions | null> {
    // Not a workspace id: nothing to keep for it.
    if (!isUuid(workspaceId)) return null;
    const rows = await this.db.query<Row>(READ_VERSIONS, [workspaceId]);
    return versionsOf(rows[0]!);
  }

  async heads(
    workspaceId: string,
    topicIds: readonly string[],
  ): Promise<{ versions: ReadVersions | null; heads: Array<KeptHead & { at: number }> }> {
    if (!isUuid(workspaceId)) return { versions: null, heads: [] };
    const sent = uuidPositions(topicIds);
    const rows = await this.db.query<Row>(READ_KEPT_HEADS, [workspaceId, sent.map((i) => topicIds[i]).join(",")]);
    const heads: Array<KeptHead & { at: number }> = headsAt(rows, sent, topicIds, (r) => ({
      approved_at: isoOrNull(r.approved_at),
      updated_at: iso(r.updated_at),
      version: Number(r.version),
    }));
    return { versions: versionsOf(rows[0]!), heads };
  }

  async termWeights(
    workspaceId: string,
    topicIds: readonly string[],
    terms: readonly string[],
  ): Promise<{ versions: ReadVersions | null; weights: Map<string, number[]> }> {
    const weights = new Map<string, number[]>();
    if (!isUuid(workspaceId)) return { versions: null, weights };
    const sent = uuidPositions(topicIds);
    const rows = await this.db.query<Row>(READ_TERM_WEIGHTS, [workspaceId, sent.map((i) => topicIds[i]).join(","), [...terms]]);
    for (const r of rows) {
      if (r.n === null) continue;
      const w = (r.weights as Array<number | string> | null) ?? [];
      weights.set(topicIds[sent[(r.n as number) - 1]!]!, terms.map((_, k) => Number(w[k] ?? 0)));
    }
    return { versions: versionsOf(rows[0]!), weights };
  }
}
