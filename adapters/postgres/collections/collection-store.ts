import { isUuid } from "../../../core/kernel/ids.ts";
import type { Collection } from "../../../core/collections/model.ts";
import type { CollectionFilter, CollectionStore, IdPage, PurgePlan, Slice } from "../../../core/collections/ports.ts";
import { declaredRollups } from "../../../core/collections/record-rollup.ts";
import { inTransaction, type SqlDriver } from "../driver.ts";
import { syncRollups } from "./rollup-sync.ts";
import { COLLECTION_COLUMNS, toCollection } from "./rows.ts";
import { json, type Row } from "../row-values.ts";

/** Parameters $3…$17 of a collection: its values after the keys, then `name_folded`. */
function values(c: Collection): unknown[] {
  return [
    c.name,
    c.archetype,
    c.status,
    json(c.record_schema),
    json(c.views),
    c.criterion_rel_slugs,
    json(c.distill_policy),
    json(c.connector_mapping),
    json(c.presentation),
    c.owner_identity_id,
    c.created_by,
    c.version,
    c.created_at,
    c.updated_at,
    c.name.toLowerCase(),
  ];
}

/** `id < afterId` for a newest-first page; a non-uuid position compares as text, as ids sort. */
export function beforeId(afterId: string, add: (v: unknown) => string): string {
  return isUuid(afterId) ? `id < ${add(afterId)}::uuid` : `id::text collate "C" < ${add(afterId)}::text`;
}

/** Collections `known` keeps, least recently used dropped first. */
const KNOWN_MAX = 1_000;

export class PostgresCollectionStore implements CollectionStore {
  /**
   * What `known` answers without a read (ADR 058): the collections it last read, each until this
   * store changes or purges it. Another process's change is not seen here; the record insert that
   * uses one checks its version (record-creates.ts), and the caller reads it again when it moved.
   */
  readonly #known = new Map<string, Collection>();

  constructor(private readonly db: SqlDriver) {}

  async known(workspaceId: string, id: string, fresh = false): Promise<Collection | null> {
    const key = `${workspaceId}:${id}`;
    const kept = fresh ? undefined : this.#known.get(key);
    this.#known.delete(key);
    const c = kept ?? await this.get(workspaceId, id);
    if (c) {
      this.#known.set(key, c);
      if (this.#known.size > KNOWN_MAX) this.#known.delete(this.#known.keys().next().value!);
    }
    return c;
  }

  async get(workspaceId: string, id: string): Promise<Collection | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const rows = await this.db.query<Row>(`select ${COLLECTION_COLUMNS} from collections where workspace_id = $1 and id = $2`, [
      workspaceId,
      id,
    ]);
    return rows[0] ? toCollection(rows[0]) : null;
  }

  async list(workspaceId: string, filter: CollectionFilter, page: IdPage): Promise<Slice<Collection>> {
    if (!isUuid(workspaceId)) return { items: [], has_more: false };
    const params: unknown[] = [workspaceId, filter.statuses];
    const add = (v: unknown) => `$${params.push(v)}`;
    const where = ["workspace_id = $1", "status = any($2::text[])"];
    if (filter.ownerId !== undefined) where.push(`owner_identity_id = ${add(filter.ownerId)}::text`);
    if (filter.updatedAfter !== undefined) where.push(`updated_at > ${add(filter.updatedAfter)}::text`);
    for (const w of filter.nameWords ?? []) where.push(`strpos(name_folded, ${add(w)}::text) > 0`);
    if (page.afterId !== undefined) where.push(beforeId(page.afterId, add));
    const limit = Math.max(0, Math.trunc(page.limit));
    const rows = await this.db.query<Row>(
      `select ${COLLECTION_COLUMNS} from collections where ${where.join(" and ")} order by id desc limit ${add(limit + 1)}::int`,
      params,
    );
    return { items: rows.slice(0, limit).map(toCollection), has_more: rows.length > limit };
  }

  async insert(c: Collection): Promise<void> {
    if (!isUuid(c.workspace_id) || !isUuid(c.id)) throw new TypeError("A collection's workspace_id and id must be uuids");
    if (declaredRollups(c).length) {
      await this.db.transaction(async (tx) => {
        await this.#insert(tx, c);
        await syncRollups(tx, c);
      });
    } else await this.#insert(this.db, c);
  }

  async #insert(db: SqlDriver, c: Collection): Promise<void> {
    await db.query(
      `insert into collections (${COLLECTION_COLUMNS}, name_folded)
       values ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8::text[], $9::text::jsonb, $10::text::jsonb, $11::text::jsonb,
               $12, $13, $14, $15, $16, $17)`,
      [c.workspace_id, c.id, ...values(c)],
    );
  }

  /**
   * One transaction holding the collection row `for update`: record writes wait (migration 023)
   * while the rollups are made those the new views declare.
   */
  async update(c: Collection): Promise<"ok" | "version_conflict" | "not_found"> {
    if (!isUuid(c.workspace_id) || !isUuid(c.id)) return "not_found";
    this.#known.delete(`${c.workspace_id}:${c.id}`);
    return inTransaction<"ok" | "version_conflict" | "not_found">(this.db, async (tx, abort) => {
      const cur = await tx.query<Row>(`select version from collections where workspace_id = $1 and id = $2 for update`, [
        c.workspace_id,
        c.id,
      ]);
      if (!cur[0]) return abort("not_found");
      if (Number(cur[0].version) !== c.version - 1) return abort("version_conflict");
      const result = await this.#update(tx, c);
      if (result !== "ok") return abort(result);
      await syncRollups(tx, c);
      return "ok";
    });
  }

  async #update(db: SqlDriver, c: Collection): Promise<"ok" | "version_conflict" | "not_found"> {
    const rows = await db.query(
      `with cur as (select version from collections where workspace_id = $1 and id = $2),
       upd as (
         update collections set name = $3, archetype = $4, status = $5, record_schema = $6::text::jsonb, views = $7::text::jsonb,
           criterion_rel_slugs = $8::text[], distill_policy = $9::text::jsonb, connector_mapping = $10::text::jsonb,
           presentation = $11::text::jsonb, owner_identity_id = $12, created_by = $13, version = $14, created_at = $15,
           updated_at = $16, name_folded = $17
         where workspace_id = $1 and id = $2 and version = $18
         returning 1)
       select (select count(*)::int from upd) as updated, (select count(*)::int from cur) as found`,
      [c.workspace_id, c.id, ...values(c), c.version - 1],
    );
    const r = rows[0] as Row;
    return Number(r.updated) ? "ok" : Number(r.found) ? "version_conflict" : "not_found";
  }

  async purgePlan(workspaceId: string, id: string): Promise<PurgePlan | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const rows = await this.db.query<Row>(
      `select r.n as records, r.linked, h.n as history, h.o as outcomes
       from collections c,
         lateral (select count(*)::int as n, count(entity_id)::int as linked from collection_records
                  where workspace_id = c.workspace_id and collection_id = c.id) r,
         lateral (select count(*)::int as n, count(outcome)::int as o from record_changes
                  where workspace_id = c.workspace_id and collection_id = c.id) h
       where c.workspace_id = $1 and c.id = $2`,
      [workspaceId, id],
    );
    const r = rows[0];
    return r ? plan(id, r.records, r.history, r.outcomes, r.linked) : null;
  }

  async purge(workspaceId: string, id: string, expectedVersion: number): Promise<PurgePlan | "version_conflict" | "not_found"> {
    if (!isUuid(workspaceId) || !isUuid(id)) return "not_found";
    this.#known.delete(`${workspaceId}:${id}`);
    return inTransaction<PurgePlan | "version_conflict" | "not_found">(this.db, async (tx, abort) => {
      // Held until commit: a record insert's foreign key check waits on it, then fails.
      const cur = await tx.query<Row>(`select version from collections where workspace_id = $1 and id = $2 for update`, [workspaceId, id]);
      if (!cur[0]) return abort("not_found");
      if (Number(cur[0].version) !== expectedVersion) return abort("version_conflict");
      // Rollups first: then the records' deletion finds none to keep up to date (migration 023).
      await tx.query(`delete from record_rollups where workspace_id = $1 and collection_id = $2`, [workspaceId, id]);
      // Records first: each is locked as it goes, so an update that held one commits (record and
      // change) before this statement takes it, and the next statement's fresh snapshot sees that change.
      const r = await tx.query<Row>(
        `with gone as (delete from collection_records where workspace_id = $1 and collection_id = $2 returning entity_id)
         select count(*)::int as n, count(entity_id)::int as linked from gone`,
        [workspaceId, id],
      );
      const h = await tx.query<Row>(
        `with gone as (delete from record_changes where workspace_id = $1 and collection_id = $2 returning outcome)
         select count(*)::int as n, count(outcome)::int as o from gone`,
        [workspaceId, id],
      );
      await tx.query(`delete from collections where workspace_id = $1 and id = $2`, [workspaceId, id]);
      return plan(id, r[0]?.n, h[0]?.n, h[0]?.o, r[0]?.linked);
    });
  }
}

function plan(id: string, records: unknown, history: unknown, outcomes: unknown, links: unknown): PurgePlan {
  return {
    collection_id: id,
    records: Number(records ?? 0),
    history_entries: Number(history ?? 0),
    outcomes: Number(outcomes ?? 0),
    entity_links: Number(links ?? 0),
  };
}
