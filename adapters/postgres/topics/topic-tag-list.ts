/**
 * The list of one tag off `topic_tags` (migrations/021-topic-tag-lists.ts, kept by
 * topic-tag-rows.ts): a range of `topic_tags_list_idx` rather than every topic carrying the tag
 * read and sorted (docs/decisions/037-topic-tag-lists.md).
 */
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Topic } from "../../../core/topics/model.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import type { SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { topicColumns, toTopic } from "./topic-rows.ts";

/** `LIST_ORDER` (topic-store.ts) on the side table: the order of `topic_tags_list_idx`. */
const TAG_LIST_ORDER = "drifted desc, trust_rank desc, updated_at desc, topic_id desc";

/**
 * The topics (not archived) carrying `tag`, in list order, and their number from the registry's
 * `live_count` (kept by the same writes). The page's ids come off one range of
 * `topic_tags_list_idx` (an index-only scan once vacuumed), then only their rows are read, by key.
 * The plan is the same for every tag, so it is left to PostgreSQL's plan cache (no PLAN_EACH).
 */
export function listByTag(
  db: SqlDriver,
  workspaceId: string,
  tag: string,
  page: OffsetPage,
  bodyChars: number | undefined,
): Promise<Listed<Topic>> {
  return listPage(db, {
    page: `select ${topicColumns("t", bodyChars)}, t.drifted, t.trust_rank
           from (select topic_id from topic_tags where workspace_id = $1 and tag = $2
                 order by ${TAG_LIST_ORDER} limit $3 offset $4) k
           join topics t on t.workspace_id = $1 and t.id = k.topic_id`,
    count: `select coalesce((select live_count from tags where workspace_id = $1 and name = $2), 0) as total`,
    order: "page.drifted desc, page.trust_rank desc, page.updated_at desc, page.id desc",
    params: [workspaceId, tag, ...pageParams(page)],
    map: toTopic,
  });
}
