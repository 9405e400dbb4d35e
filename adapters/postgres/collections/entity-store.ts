import { isUuid } from "../../../core/kernel/ids.ts";
import type { Entity } from "../../../core/collections/model.ts";
import type { EntityStore, IdPage, Slice } from "../../../core/collections/ports.ts";
import { PLAN_ONCE, type SqlDriver } from "../driver.ts";
import { beforeId } from "./collection-store.ts";
import { ENTITY_COLUMNS, toEntity } from "./rows.ts";
import { json, type Row } from "../row-values.ts";

/** Rounds of read, merge, version-checked write an upsert tries before it gives up. */
const MAX_UPSERT_ATTEMPTS = 20;

const values = (
  e: Entity,
): unknown[] => [
  e.workspace_id,
  e.id,
  e.kind,
  e.name,
  e.dedup_key,
  e.dedup_norm,
  json(e.attributes),
  e.version,
  e.created_at,
  e.updated_at,
];
const INSERT = `insert into entities (${ENTITY_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9, $10)`;

export class PostgresEntityStore implements EntityStore {
  constructor(private readonly db: SqlDriver) {}

  async get(workspaceId: string, id: string): Promise<Entity | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const rows = await this.db.query<Row>(`select ${ENTITY_COLUMNS} from entities where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async getMany(workspaceId: string, ids: readonly string[]): Promise<Entity[]> {
    const wanted = [...new Set(ids)].filter(isUuid);
    if (!isUuid(workspaceId) || wanted.length === 0) return [];
    // By primary key whatever the ids: one generic plan (PLAN_ONCE).
    const rows = await this.db.query<Row>(
      `select ${ENTITY_COLUMNS} from entities where workspace_id = $1 and id = any($2::uuid[])`,
      [workspaceId, wanted],
      PLAN_ONCE,
    );
    return rows.map(toEntity);
  }

  async byDedupKeys(workspaceId: string, kind: string, dedupNorms: readonly string[]): Promise<Entity[]> {
    const wanted = [...new Set(dedupNorms)];
    if (!isUuid(workspaceId) || wanted.length === 0) return [];
    // Served by the unique (workspace_id, kind, dedup_norm) index of upserts.
    const rows = await this.db.query<Row>(
      `select ${ENTITY_COLUMNS} from entities where workspace_id = $1 and kind = $2 and dedup_norm = any($3::text[])`,
      [workspaceId, kind, wanted],
    );
    return rows.map(toEntity);
  }

  async list(workspaceId: string, kind: string | null, page: IdPage): Promise<Slice<Entity>> {
    if (!isUuid(workspaceId)) return { items: [], has_more: false };
    const params: unknown[] = [workspaceId];
    const add = (v: unknown) => `$${params.push(v)}`;
    const where = ["workspace_id = $1"];
    if (kind !== null) where.push(`kind = ${add(kind)}::text`);
    if (page.afterId !== undefined) where.push(beforeId(page.afterId, add));
    const limit = Math.max(0, Math.trunc(page.limit));
    const rows = await this.db.query<Row>(
      `select ${ENTITY_COLUMNS} from entities where ${where.join(" and ")} order by id desc limit ${add(limit + 1)}::int`,
      params,
    );
    return { items: rows.slice(0, limit).map(toEntity), has_more: rows.length > limit };
  }

  /**
   * Insert unless the key is taken (`on conflict do nothing` waits for a concurrent insert of the
   * same key and then skips, with no error), reading the holder in the same statement; then merge,
   * and write the merge only over the version read. A concurrent change of the holder makes that
   * write miss, and the round starts again from the new state.
   */
  async upsert(
    fresh: Entity,
    merge: (existing: Entity) => Entity | null,
  ): Promise<{ entity: Entity; created: boolean; previous: Entity | null }> {
    if (!isUuid(fresh.workspace_id) || !isUuid(fresh.id)) throw new TypeError("An entity's workspace_id and id must be uuids");
    if (fresh.dedup_norm === null) {
      await this.db.query(INSERT, values(fresh));
      return { entity: structuredClone(fresh), created: true, previous: null };
    }
    for (let attempt = 1; attempt <= MAX_UPSERT_ATTEMPTS; attempt++) {
      // One round trip either way: the insert, or else the holder it yielded to.
      const rows = await this.db.query<Row & { created: boolean }>(
        `with ins as (${INSERT} on conflict (workspace_id, kind, dedup_norm) where dedup_norm is not null do nothing returning 1)
         select true as created, null as ${ENTITY_COLUMNS.replaceAll(", ", ", null as ")} from ins
         union all
         select false, ${ENTITY_COLUMNS} from entities
         where workspace_id = $1 and kind = $3 and dedup_norm = $6 and dedup_norm is not null and not exists (select 1 from ins)`,
        values(fresh),
      );
      if (rows[0]?.created) return { entity: structuredClone(fresh), created: true, previous: null };
      // No holder seen: it was committed by a concurrent insert after this statement's snapshot
      // (the insert waited for it, the read cannot see it), or deleted since. The next round sees.
      if (!rows[0]) continue;
      const existing = toEntity(rows[0]);
      const next = merge(structuredClone(existing));
      if (next === null) return { entity: existing, created: false, previous: toEntity(rows[0]) };
      const stored = { ...next, workspace_id: existing.workspace_id, id: existing.id };
      const updated = await this.db.query(
        `update entities set kind = $3, name = $4, dedup_key = $5, dedup_norm = $6, attributes = $7::text::jsonb, version = $8,
           created_at = $9, updated_at = $10
         where workspace_id = $1 and id = $2 and version = $11
         returning 1`,
        [...values(stored), existing.version],
      );
      if (updated.length) return { entity: structuredClone(stored), created: false, previous: existing };
    }
    throw new Error(`Entity upsert of (${fresh.kind}, ${fresh.dedup_norm}) lost ${MAX_UPSERT_ATTEMPTS} races in a row`);
  }

  async update(next: Entity): Promise<"ok" | "version_conflict" | "not_found"> {
    if (!isUuid(next.workspace_id) || !isUuid(next.id)) return "not_found";
    const updated = await this.db.query(
      `update entities set name = $3, attributes = $4::text::jsonb, version = $5, updated_at = $6
       where workspace_id = $1 and id = $2 and version = $5 - 1 returning 1`,
      [next.workspace_id, next.id, next.name, json(next.attributes), next.version, next.updated_at],
      // By primary key whatever the values: one generic plan.
      PLAN_ONCE,
    );
    if (updated.length) return "ok";
    return (await this.get(next.workspace_id, next.id)) ? "version_conflict" : "not_found";
  }
}
