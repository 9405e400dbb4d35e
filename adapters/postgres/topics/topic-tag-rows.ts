/**
 * The writes of `topic_tags` (migrations/021-topic-tag-lists.ts): one row per (topic not archived,
 * tag) with the topic's list-order keys, which make the list of one tag an index range
 * (topic-tag-list.ts, docs/decisions/037-topic-tag-lists.md).
 */
import type { SqlDriver } from "../driver.ts";

/**
 * Makes the `topic_tags` rows of a topic what its stored row says: one per tag with its current
 * list-order keys while it is not archived, none otherwise. Runs in the writer's transaction,
 * right after the topic's row is inserted or updated (its row lock is held), reading that row
 * back, so the side table cannot disagree with it. Deletions go by the foreign key's cascade.
 */
export async function syncTopicTags(tx: SqlDriver, workspaceId: string, topicId: string): Promise<void> {
  // The delete and the upsert touch disjoint rows (tags lost, tags kept or gained).
  await tx.query(
    `with want as (
       select t.workspace_id, u.tag, t.id as topic_id, t.drifted, t.trust_rank, t.updated_at
       from topics t, unnest(t.tags) as u (tag)
       where t.workspace_id = $1 and t.id = $2 and t.status <> 'archived'
     ), lost as (
       delete from topic_tags x
       where x.workspace_id = $1 and x.topic_id = $2 and not exists (select 1 from want w where w.tag = x.tag)
     )
     insert into topic_tags (workspace_id, tag, topic_id, drifted, trust_rank, updated_at)
     select workspace_id, tag, topic_id, drifted, trust_rank, updated_at from want
     on conflict (workspace_id, topic_id, tag) do update
       set drifted = excluded.drifted, trust_rank = excluded.trust_rank, updated_at = excluded.updated_at`,
    [workspaceId, topicId],
  );
}
