import { isUuid } from "../../../core/kernel/ids.ts";
import type { AnchorIndexStore, TopicAnchors } from "../../../core/code-context/ports.ts";
import type { ReadOptions } from "../../../core/topics/ports.ts";
import type { Topic } from "../../../core/topics/model.ts";
import type { SqlDriver } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";
import { topicColumns, toTopic } from "../topics/topic-rows.ts";

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
}
