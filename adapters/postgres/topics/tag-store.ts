import { isUuid } from "../../../core/kernel/ids.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Tag, Topic } from "../../../core/topics/model.ts";
import type { TagView } from "../../../core/topics/dto.ts";
import type { TagStore, TopicWrite } from "../../../core/topics/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { inTransaction, type SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import type { Row } from "../row-values.ts";
import { applyTagDeltas, TAG_COLUMNS, type TagDeltas, topicColumns, toTagView, toTopic, writeVersion } from "./topic-rows.ts";

/** Attempts of a retag before it gives up on topics that keep gaining the tag meanwhile. */
const MAX_RETAG_ATTEMPTS = 5;
const RETRY = Symbol("retry");

/**
 * The tag registry. `topic_count` is kept by the topic writes (topic-rows.ts `applyTagDeltas`),
 * so reads are one indexed row or one index range.
 */
export class PostgresTagStore implements TagStore {
  constructor(private readonly db: SqlDriver) {}

  list(workspaceId: string, page: OffsetPage): Promise<Listed<TagView>> {
    if (!isUuid(workspaceId)) return Promise.resolve({ items: [], total: 0 });
    return listPage(this.db, {
      // listPage tells the total-only row by a null `id`; a tag's key is its name.
      page: `select name as id, ${TAG_COLUMNS} from tags where workspace_id = $1
             order by topic_count desc, name limit $2 offset $3`,
      count: `select count(*)::int as total from tags where workspace_id = $1`,
      order: "page.topic_count desc, page.name",
      params: [workspaceId, ...pageParams(page)],
      map: toTagView,
    });
  }

  async get(workspaceId: string, name: string): Promise<TagView | null> {
    if (!isUuid(workspaceId)) return null;
    const rows = await this.db.query<Row>(`select ${TAG_COLUMNS} from tags where workspace_id = $1 and name = $2`, [workspaceId, name]);
    return rows[0] ? toTagView(rows[0]) : null;
  }

  async upsert(tag: Tag): Promise<{ tag: TagView; created: boolean }> {
    if (!isUuid(tag.workspace_id)) throw new TypeError("A tag's workspace_id must be a uuid");
    // One statement, so concurrent upserts of a name queue on its key. An existing tag takes
    // only a description (and then the time); `xmax = 0` holds for a row this statement inserted.
    const rows = await this.db.query<Row>(
      `insert into tags as g (workspace_id, name, description, topic_count, created_at, updated_at)
       values ($1, $2, $3, 0, $4, $5)
       on conflict (workspace_id, name) do update set
         description = coalesce(excluded.description, g.description),
         updated_at = case when excluded.description is null then g.updated_at else excluded.updated_at end
       returning ${TAG_COLUMNS}, (xmax = 0) as created`,
      [tag.workspace_id, tag.name, tag.description, tag.created_at, tag.updated_at],
    );
    const r = rows[0]!;
    return { tag: toTagView(r), created: r.created === true };
  }

  async describe(workspaceId: string, name: string, description: string | null, at: string): Promise<TagView | null> {
    if (!isUuid(workspaceId)) return null;
    const rows = await this.db.query<Row>(
      `update tags set description = $3, updated_at = $4 where workspace_id = $1 and name = $2 returning ${TAG_COLUMNS}`,
      [workspaceId, name, description, at],
    );
    return rows[0] ? toTagView(rows[0]) : null;
  }

  /**
   * One transaction, retried whole (a few times) when topics gained `from` while it ran.
   *
   * Deadlock freedom: every topic write locks its topics first, in id order and in one
   * statement, then the tags it touches, in name order and in one statement. A retag does the
   * same: it locks and rewrites every topic carrying `from` (one `select ... order by id for
   * update`), then locks `from`, `to` and whatever else the rewrites touched in one sorted
   * upsert. From then on no write can attach `from` unseen: it would wait on the `from` row, and
   * after the delete below it registers `from` anew, with its own count. A topic that gained
   * `from` between the two steps (committed) cannot be locked now without breaking the order,
   * so the attempt rolls back and starts over.
   */
  async retag(workspaceId: string, from: string, to: string | null, rewrite: (topic: Topic) => TopicWrite): Promise<number | null> {
    if (!isUuid(workspaceId)) return null;
    for (let attempt = 1;; attempt++) {
      const r = await this.retagOnce(workspaceId, from, to, rewrite, attempt < MAX_RETAG_ATTEMPTS);
      if (r !== RETRY) return r;
    }
  }

  private retagOnce(
    workspaceId: string,
    from: string,
    to: string | null,
    rewrite: (topic: Topic) => TopicWrite,
    mayRetry: boolean,
  ): Promise<number | null | typeof RETRY> {
    return inTransaction<number | null | typeof RETRY>(this.db, async (tx, abort) => {
      const known = await tx.query(`select 1 from tags where workspace_id = $1 and name = $2`, [workspaceId, from]);
      if (known.length === 0) return null;

      // Under `for update`, a row changed meanwhile is re-read, and skipped if it no longer
      // carries the tag.
      const rows = await tx.query<Row>(
        `select ${topicColumns()} from topics
         where workspace_id = $1 and tags @> array[$2::text]
         order by id
         for update`,
        [workspaceId, from],
      );
      const done: string[] = [];
      const deltas: TagDeltas = new Map();
      let at: string | null = null;
      for (const r of rows) {
        const topic = toTopic(r);
        const w = rewrite(topic);
        await writeVersion(tx, w, topic, deltas);
        done.push(topic.id);
        at = w.topic.updated_at;
      }

      // Every registry row this retag touches, locked (or created) in name order. A row
      // created here that was not there before is `to` (new) or `from` (moved meanwhile).
      const names = [...new Set([from, ...(to === null ? [] : [to]), ...deltas.keys()])];
      const regs = await tx.query<Row>(
        `insert into tags as g (workspace_id, name, description, topic_count, created_at, updated_at)
         select $1, d.name, null, 0, now(), now() from unnest($2::text[]) as d (name)
         order by d.name collate "C"
         on conflict (workspace_id, name) do update set topic_count = g.topic_count
         returning ${TAG_COLUMNS}, (xmax = 0) as created`,
        [workspaceId, names],
      );
      const old = regs.find((r) => r.name === from);
      if (!old || old.created === true) return abort(null); // a concurrent retag moved it first

      const late = await tx.query(
        `select 1 from topics where workspace_id = $1 and tags @> array[$2::text] and id <> all($3::uuid[]) limit 1`,
        [workspaceId, from, done],
      );
      if (late.length > 0) {
        if (mayRetry) return abort(RETRY);
        throw new Error(`Cannot retag ${from}: topics keep gaining it`);
      }

      if (to !== null && to !== from) {
        // `to` keeps its own description, else takes `from`'s; new, it is `from` renamed.
        const isNew = regs.find((r) => r.name === to)?.created === true;
        await tx.query(
          isNew
            ? `update tags set description = $3, created_at = $4 where workspace_id = $1 and name = $2`
            : `update tags set description = coalesce(description, $3) where workspace_id = $1 and name = $2`,
          isNew ? [workspaceId, to, old.description, old.created_at] : [workspaceId, to, old.description],
        );
      }
      if (to !== from) deltas.delete(from);
      // Every name is registered by now, so `at` (for new names) is moot.
      if (at !== null) await applyTagDeltas(tx, workspaceId, deltas, at);
      if (to !== from) await tx.query(`delete from tags where workspace_id = $1 and name = $2`, [workspaceId, from]);
      return done.length;
    });
  }
}
