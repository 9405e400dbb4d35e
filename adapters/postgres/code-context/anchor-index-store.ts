import { isUuid } from "../../../core/kernel/ids.ts";
import type { AnchorIndexStore, TopicAnchors, TopicHead } from "../../../core/code-context/ports.ts";
import type { ReadOptions } from "../../../core/topics/ports.ts";
import type { ApprovedVia, Topic } from "../../../core/topics/model.ts";
import type { TopicStatus } from "../../../core/topics/governance.ts";
import type { SqlDriver } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";
import { topicColumns, toTopic } from "../topics/mod.ts";

/**
 * The workspace's anchor version (migrations/022-anchor-versions.ts) as one row: a primary-key
 * read, joined by every statement below so that the rows and the version come from one snapshot.
 */
const VERSION = `(select coalesce((select version from anchor_versions where workspace_id = $1), 0)::text as anchor_version) v`;

/** Every anchored topic of a workspace (any status), with the version: a reload after a change. */
export const LOAD_ANCHORS = `select v.anchor_version, t.id, t.repo_id, t.anchors from ${VERSION}
  left join topics t on t.workspace_id = $1 and cardinality(t.anchors) > 0`;

/** The matched topics by primary key, with the version: the one query of a match-files request. */
export function readTopics(columns: string): string {
  return `select v.anchor_version, ${columns} from ${VERSION}
  left join topics t on t.workspace_id = $1 and t.id = any($2::uuid[]) and t.status <> 'archived'`;
}

/**
 * The heads of the matched topics by primary key, in match order (`compareMatched`: the stored
 * `trust_rank`, the generated `drifted`, `updated_at`, `id`), with the version: the one query of
 * a match-files request. Only the columns it shows (no body, tags, anchors or timestamps to
 * parse), and instead of the id its position in the list sent (`n`): the caller has the ids, and
 * joins by position rather than by hashing a thousand fresh id strings. The ids go as one
 * comma-separated text (checked UUIDs): the client serialises a thousand-element array parameter
 * element by element, which cost as much as the rest of the driver's work.
 */
export const READ_HEADS = `select v.anchor_version, p.n::int4 as n, t.slug, t.title, t.status, t.drifted, t.approved_via,
    coalesce(t.status = 'reviewed' and t.approved_at < $3::timestamptz, false) as stale
  from ${VERSION}
  left join (unnest(string_to_array($2, ',')::uuid[]) with ordinality as p(id, n)
    join topics t on t.workspace_id = $1 and t.id = p.id and t.status <> 'archived') on true
  order by t.trust_rank desc, t.drifted desc, t.updated_at desc, t.id desc`;

/** Topic columns of `t`; without the body when `bodyChars` is 0 (`left(body, 0)` would still read it whole). */
function columns(bodyChars: number | undefined): string {
  if (bodyChars !== 0) return topicColumns("t", bodyChars);
  return topicColumns("t").split(", ").map((c) => (c === "t.body" ? "''::text as body" : c)).join(", ");
}

export class PostgresAnchorIndexStore implements AnchorIndexStore {
  constructor(private readonly db: SqlDriver) {}

  async load(workspaceId: string): Promise<{ version: string; topics: TopicAnchors[] } | null> {
    if (!isUuid(workspaceId)) return { version: "0", topics: [] };
    const rows = await this.db.query<Row>(LOAD_ANCHORS, [workspaceId]);
    const topics: TopicAnchors[] = [];
    for (const r of rows) {
      if (r.id !== null) topics.push({ id: str(r.id), repo_id: strOrNull(r.repo_id), anchors: [...(r.anchors as string[])] });
    }
    return { version: str(rows[0]!.anchor_version), topics };
  }

  async read(workspaceId: string, topicIds: readonly string[], options: ReadOptions = {}): Promise<{ version: string; topics: Topic[] }> {
    if (!isUuid(workspaceId)) return { version: "0", topics: [] };
    const ids = [...new Set(topicIds)].filter(isUuid);
    const rows = await this.db.query<Row>(readTopics(columns(options.bodyChars)), [workspaceId, ids]);
    return { version: str(rows[0]!.anchor_version), topics: rows.filter((r) => r.id !== null).map(toTopic) };
  }

  async heads(workspaceId: string, topicIds: readonly string[], staleBefore: string): Promise<{ version: string; topics: TopicHead[] }> {
    if (!isUuid(workspaceId)) return { version: "0", topics: [] };
    // Positions in the list sent, then in `topicIds` (an id that is no UUID names no topic).
    const sent = uuidPositions(topicIds);
    const rows = await this.db.query<Row>(READ_HEADS, [workspaceId, sent.map((i) => topicIds[i]).join(","), staleBefore]);
    const topics: TopicHead[] = headsAt(rows, sent, topicIds, (r) => ({ stale: r.stale as boolean }));
    return { version: str(rows[0]!.anchor_version), topics };
  }
}

/** The positions in `topicIds` of the ids that can name a topic (UUIDs): what a heads read sends. */
export function uuidPositions(topicIds: readonly string[]): number[] {
  const sent: number[] = [];
  topicIds.forEach((id, i) => {
    if (isUuid(id)) sent.push(i);
  });
  return sent;
}

/**
 * The rows of a heads read (each numbered `n`, its position in the list sent; null: no such
 * topic), placed back at their positions in `topicIds`, with the fields every head has and `more`.
 */
export function headsAt<T extends object>(rows: readonly Row[], sent: readonly number[], topicIds: readonly string[], more: (r: Row) => T) {
  const heads: Array<
    { at: number; id: string; slug: string; title: string; status: TopicStatus; drifted: boolean; approved_via: ApprovedVia | null } & T
  > = [];
  for (const r of rows) {
    if (r.n === null) continue;
    const at = sent[(r.n as number) - 1]!;
    heads.push({
      at,
      id: topicIds[at]!,
      slug: str(r.slug),
      title: str(r.title),
      status: r.status as TopicStatus,
      drifted: r.drifted as boolean,
      approved_via: (r.approved_via ?? null) as ApprovedVia | null,
      ...more(r),
    });
  }
  return heads;
}
