import type { CapacityClaim, CapacityRefusal } from "../../../core/kernel/capacity.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import type { CollectionRecord, RecordChange } from "../../../core/collections/model.ts";
import type {
  RecordImportJob,
  RecordImportOutcome,
  RecordQuery,
  RecordRemoval,
  RecordStore,
  RecordWrite,
  Slice,
} from "../../../core/collections/ports.ts";
import type { AggregateGroup, CompiledAggregate, GroupKeyValue } from "../../../core/collections/record-aggregate.ts";
import { type DeclaredRollup, groupOfRollup } from "../../../core/collections/record-rollup.ts";
import type { CompiledFilter } from "../../../core/collections/record-filter.ts";
import { FOREIGN_KEY_VIOLATION, inTransaction, PLAN_ONCE, type SqlDriver, sqlState } from "../driver.ts";
import { AccountBatches, type AccountWrite } from "../credits/mod.ts";
import { type ClaimingCreate, claimingCreates, type Settled } from "./record-creates.ts";
import { CHANGE_COLUMNS, RECORD_COLUMNS, toRecord } from "./rows.ts";
import { importInTransaction } from "./record-import.ts";
import { afterSql, aggregateSql, filterSql, foldingCollation, orderSql, Params, rollupSql, type SqlDialect } from "./record-sql.ts";
import { json, type Row, str, strOrNull } from "../row-values.ts";

/** The stored values of a record after its three keys, in `RECORD_COLUMNS` order (parameters $4…$14). */
function recordValues(c: CollectionRecord): unknown[] {
  return [
    json(c.fields),
    c.status,
    json(c.field_meta),
    c.entity_id,
    c.drifted,
    c.search_text,
    c.created_by,
    c.updated_by,
    c.version,
    c.created_at,
    c.updated_at,
  ];
}

export function toChange(r: Row): RecordChange {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    collection_id: str(r.collection_id),
    record_id: str(r.record_id),
    version: Number(r.version),
    type: r.type as RecordChange["type"],
    actor_id: strOrNull(r.actor_id),
    actor_kind: r.actor_kind as RecordChange["actor_kind"],
    at: str(r.at),
    diff: r.diff as RecordChange["diff"],
    stage: (r.stage ?? null) as RecordChange["stage"],
    outcome: (r.outcome ?? null) as RecordChange["outcome"],
  };
}

/**
 * The values of a change after the record's keys and values ($15…$23), and the statement tail
 * that appends it from the row a write returns: record and change are one statement, so one round
 * trip and no explicit transaction.
 */
function changeValues(c: RecordChange): unknown[] {
  return [c.id, c.type, c.actor_id, c.actor_kind, c.at, json(c.diff), json(c.stage), json(c.outcome), c.version];
}
const APPEND_CHANGE = `insert into record_changes (${CHANGE_COLUMNS})
  select w.workspace_id, w.id, $23, w.collection_id, $15, $16, $17, $18, $19, $20::text::jsonb, $21::text::jsonb, $22::text::jsonb from w`;

const KEYS = "workspace_id = $1 and collection_id = $2 and id = $3";

export class PostgresRecordStore implements RecordStore {
  private dialect: Promise<SqlDialect> | null = null;

  /** Creates of one workspace take turns on its usage counter, and go out together (ADR 058). */
  readonly #turns = new AccountBatches();
  readonly #creates: AccountWrite<ClaimingCreate, Settled>;

  /** On a pool (postgres.js), an import's transaction holds one connection and reads go on others; PGlite has one. */
  readonly importAlongside: boolean;

  constructor(private readonly db: SqlDriver) {
    this.#creates = claimingCreates(db);
    this.importAlongside = db.kind === "postgres";
  }

  /** Asked of the database once, on the first filter. */
  private where(f: CompiledFilter, p: Params): Promise<string> {
    this.dialect ??= foldingCollation(this.db).then(
      (c) => ({ foldingCollation: c }),
      (e) => {
        this.dialect = null;
        throw e;
      },
    );
    return this.dialect.then((d) => filterSql(f, p, d));
  }

  async get(workspaceId: string, collectionId: string, id: string): Promise<CollectionRecord | null> {
    if (![workspaceId, collectionId, id].every(isUuid)) return null;
    const rows = await this.db.query<Row>(`select ${RECORD_COLUMNS} from collection_records where ${KEYS}`, [
      workspaceId,
      collectionId,
      id,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getMany(workspaceId: string, collectionId: string, ids: readonly string[]): Promise<CollectionRecord[]> {
    const wanted = [...new Set(ids)].filter(isUuid);
    if (!isUuid(workspaceId) || !isUuid(collectionId) || wanted.length === 0) return [];
    const rows = await this.db.query<Row>(
      `select ${RECORD_COLUMNS} from collection_records where workspace_id = $1 and collection_id = $2 and id = any($3::uuid[])`,
      [workspaceId, collectionId, wanted],
      // By primary key whatever the ids: one generic plan.
      PLAN_ONCE,
    );
    return rows.map(toRecord);
  }

  async byEntities(workspaceId: string, collectionId: string, entityIds: readonly string[]): Promise<CollectionRecord[]> {
    const wanted = [...new Set(entityIds)];
    if (!isUuid(workspaceId) || !isUuid(collectionId) || wanted.length === 0) return [];
    // Served by collection_records_entity_idx (migration 011).
    const rows = await this.db.query<Row>(
      `select ${RECORD_COLUMNS} from collection_records where workspace_id = $1 and collection_id = $2 and entity_id = any($3::text[])`,
      [workspaceId, collectionId, wanted],
    );
    return rows.map(toRecord);
  }

  async query(workspaceId: string, collectionId: string, q: RecordQuery): Promise<Slice<CollectionRecord>> {
    if (!isUuid(workspaceId) || !isUuid(collectionId)) return { items: [], has_more: false };
    const p = new Params(workspaceId, collectionId);
    const where = ["workspace_id = $1", "collection_id = $2"];
    if (q.filter) where.push(await this.where(q.filter, p));
    for (const w of q.words ?? []) where.push(`strpos(search_text, ${p.add(w, "::text")}) > 0`);
    if (q.after) where.push(afterSql(q.sort, q.after, p));
    const limit = Math.max(0, Math.trunc(q.limit));
    const rows = await this.db.query<Row>(
      `select ${RECORD_COLUMNS} from collection_records where ${where.join(" and ")}
       order by ${orderSql(q.sort, p)} limit ${p.add(limit + 1, "::int")}`,
      p.values,
    );
    return { items: rows.slice(0, limit).map(toRecord), has_more: rows.length > limit };
  }

  async aggregate(workspaceId: string, collectionId: string, spec: CompiledAggregate): Promise<AggregateGroup[]> {
    if (!isUuid(workspaceId) || !isUuid(collectionId)) return [];
    const p = new Params(workspaceId, collectionId);
    const where = ["workspace_id = $1", "collection_id = $2"];
    if (spec.filter) where.push(await this.where(spec.filter, p));
    const rows = await this.db.query<Row>(aggregateSql(spec, where.join(" and "), p), p.values);
    return rows.map((r) => ({
      key: spec.groupBy.map((_, i) => (r[`k${i}`] ?? null) as AggregateGroup["key"][number]),
      count: Number(r.n),
      values: spec.metrics.map((m, i) => {
        if (!(`m${i}t` in r)) return (r[`m${i}`] ?? null) as AggregateGroup["values"][number];
        // An undeclared field's min/max: numbers rank before strings (aggregateSql).
        const [num, text] = [(r[`m${i}`] ?? null) as number | null, (r[`m${i}t`] ?? null) as string | null];
        return m.fn === "min" ? (num ?? text) : (text ?? num);
      }),
    }));
  }

  async aggregateRollup(
    workspaceId: string,
    collectionId: string,
    rollup: Pick<DeclaredRollup, "id" | "shape">,
    spec: CompiledAggregate,
  ): Promise<AggregateGroup[] | null> {
    if (!isUuid(workspaceId) || !isUuid(collectionId)) return null;
    const p = new Params(workspaceId, collectionId);
    const rows = await this.db.query<Row>(rollupSql(spec, rollup.id, rollup.shape, p), p.values);
    if (!rows.length) return null;
    return rows.filter((r) => r.key !== null && r.key !== undefined).map((r) =>
      groupOfRollup(spec, rollup.shape, {
        key: r.key as GroupKeyValue[],
        n: Number(r.n),
        sums: (r.sums as number[]).map(Number),
        counts: (r.counts as number[]).map(Number),
      })
    );
  }

  async insert(w: RecordWrite): Promise<"ok" | "collection_not_found"> {
    const r = w.record;
    if (!isUuid(r.workspace_id) || !isUuid(r.collection_id)) return "collection_not_found";
    if (!isUuid(r.id)) throw new TypeError("A record's id must be a uuid");
    try {
      // The collection's foreign key: a collection that is gone (or being purged, whose row the
      // purge holds until it commits) fails the statement, which leaves nothing.
      await this.db.query(
        `with w as (insert into collection_records (${RECORD_COLUMNS})
           values ($1, $2, $3, $4::text::jsonb, $5, $6::text::jsonb, $7, $8, $9, $10, $11, $12, $13, $14)
           returning workspace_id, collection_id, id)
         ${APPEND_CHANGE}`,
        [r.workspace_id, r.collection_id, r.id, ...recordValues(r), ...changeValues(w.change)],
      );
      return "ok";
    } catch (e) {
      if (sqlState(e) === FOREIGN_KEY_VIOLATION) return "collection_not_found";
      throw e;
    }
  }

  async insertClaiming(
    w: RecordWrite,
    claim: CapacityClaim,
    collectionVersion: number | null = null,
  ): Promise<"ok" | "collection_not_found" | "collection_changed" | CapacityRefusal> {
    const r = w.record;
    if (claim.kind !== "records") throw new TypeError("A record's insert claims a unit of records");
    if (!isUuid(r.workspace_id) || !isUuid(r.collection_id)) return "collection_not_found";
    if (!isUuid(r.id)) throw new TypeError("A record's id must be a uuid");
    const settled = await this.#turns.run(`records:${r.workspace_id}`, this.#creates, { w, claim, collectionVersion });
    if ("error" in settled) throw settled.error;
    return settled.value;
  }

  async update(w: RecordWrite): Promise<"ok" | "version_conflict" | "not_found"> {
    const r = w.record;
    if (![r.workspace_id, r.collection_id, r.id].every(isUuid)) return "not_found";
    // The collection first, then the record (migration 023): a purge holds them in that order.
    const updated = await this.db.query(
      `with l as (select 1 from collections where workspace_id = $1 and id = $2 for key share),
       w as (update collection_records set
           fields = $4::text::jsonb, status = $5, field_meta = $6::text::jsonb, entity_id = $7, drifted = $8, search_text = $9,
           created_by = $10, updated_by = $11, version = $12, created_at = $13, updated_at = $14
         where ${KEYS} and version = $24 and exists (select 1 from l)
         returning workspace_id, collection_id, id),
       c as (${APPEND_CHANGE} returning 1)
       select 1 from c`,
      [r.workspace_id, r.collection_id, r.id, ...recordValues(r), ...changeValues(w.change), r.version - 1],
    );
    if (updated.length) return "ok";
    const found = await this.db.query(`select 1 from collection_records where ${KEYS}`, [r.workspace_id, r.collection_id, r.id]);
    return found.length ? "version_conflict" : "not_found";
  }

  /** In one transaction (record-import.ts). */
  async importRecords(workspaceId: string, collectionId: string, job: RecordImportJob): Promise<RecordImportOutcome> {
    if (!isUuid(workspaceId) || !isUuid(collectionId)) return "collection_not_found";
    return await importInTransaction(this.db, workspaceId, collectionId, job);
  }

  async deletePlan(workspaceId: string, collectionId: string, id: string): Promise<RecordRemoval | null> {
    if (![workspaceId, collectionId, id].every(isUuid)) return null;
    const rows = await this.db.query<Row>(
      `select h.n, h.o from collection_records r,
         lateral (select count(*)::int as n, count(outcome)::int as o from record_changes c
                  where c.workspace_id = r.workspace_id and c.record_id = r.id and c.collection_id = r.collection_id) h
       where r.workspace_id = $1 and r.collection_id = $2 and r.id = $3`,
      [workspaceId, collectionId, id],
    );
    const r = rows[0];
    return r ? { record_id: id, history_entries: Number(r.n), outcomes: Number(r.o) } : null;
  }

  async delete(
    workspaceId: string,
    collectionId: string,
    id: string,
    expectedVersion: number | null,
  ): Promise<RecordRemoval | "version_conflict" | "not_found"> {
    if (![workspaceId, collectionId, id].every(isUuid)) return "not_found";
    const keys = [workspaceId, collectionId, id];
    return inTransaction<RecordRemoval | "version_conflict" | "not_found">(this.db, async (tx, abort) => {
      // The collection first, then the record (migration 023): a purge holds them in that order.
      await tx.query(`select 1 from collections where workspace_id = $1 and id = $2 for key share`, [workspaceId, collectionId]);
      const cur = await tx.query<Row>(`select version from collection_records where ${KEYS} for update`, keys);
      if (!cur[0]) return abort("not_found");
      if (expectedVersion !== null && Number(cur[0].version) !== expectedVersion) return abort("version_conflict");
      const history = await tx.query<Row>(
        `with gone as (delete from record_changes where workspace_id = $1 and record_id = $3 and collection_id = $2 returning outcome)
         select count(*)::int as n, count(outcome)::int as o from gone`,
        keys,
      );
      await tx.query(`delete from collection_records where ${KEYS}`, keys);
      return { record_id: id, history_entries: Number(history[0]?.n ?? 0), outcomes: Number(history[0]?.o ?? 0) };
    });
  }

  async history(workspaceId: string, collectionId: string, id: string, limit: number, beforeVersion?: number): Promise<RecordChange[]> {
    if (![workspaceId, collectionId, id].every(isUuid)) return [];
    const rows = await this.db.query<Row>(
      `select ${CHANGE_COLUMNS} from record_changes
       where workspace_id = $1 and record_id = $3 and collection_id = $2 and ($4::int is null or version < $4::int)
       order by version desc limit $5`,
      [workspaceId, collectionId, id, beforeVersion === undefined ? null : Math.ceil(beforeVersion), Math.max(0, Math.trunc(limit))],
    );
    return rows.map(toChange);
  }
}
