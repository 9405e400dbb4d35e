/**
 * A workspace's topic version (migrations/030-topic-versions.ts): one read of
 * `topic_versions_pkey`; "0" before the workspace's first topic write since the migration.
 */
import type { TopicVersions } from "../../../core/topics/topic-read-cache.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { isUuid } from "../../../core/kernel/ids.ts";

/** The version of workspace `$1` as text, in any statement that needs it. */
export const TOPIC_VERSION = `coalesce((select version from topic_versions where workspace_id = $1), 0)::text`;

const CURRENT = `select ${TOPIC_VERSION} as version`;

export class PostgresTopicVersions implements TopicVersions {
  constructor(private readonly db: SqlDriver) {}

  async current(workspaceId: string): Promise<string | null> {
    // Not a workspace id: the store answers nothing for it, uncached.
    if (!isUuid(workspaceId)) return null;
    const rows = await this.db.query<Row>(CURRENT, [workspaceId]);
    return String(rows[0]?.version ?? "0");
  }
}
