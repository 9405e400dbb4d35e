/**
 * Record creates that claim the plan's unit of `records` in their own insert, several requests of
 * one workspace in one statement (docs/decisions/058-record-create-claims-in-its-insert.md).
 *
 * One statement inserts the batch's records and history entries and adds their number to the
 * workspace's counter (plan_usage, migration 015; ADR 031), so a record is counted exactly when it
 * is stored: nothing to give back when the insert fails, no round trip for the claim. The counter
 * row is the serial point of a workspace's creates (every create updates it), so they take turns
 * as a hot credit account's writes do (ADR 050, `AccountBatches`): at most two statements of this
 * process on the row, and what arrives meanwhile goes out together, up to 16.
 */
import type { RecordWrite } from "../../../core/collections/ports.ts";
import type { CapacityClaim, CapacityRefusal } from "../../../core/kernel/capacity.ts";
import type { AccountWrite } from "../credits/mod.ts";
import { FOREIGN_KEY_VIOLATION, PLAN_ONCE, type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import { json } from "../row-values.ts";
import { CHANGE_COLUMNS } from "./rows.ts";

export interface ClaimingCreate {
  w: RecordWrite;
  claim: CapacityClaim;
  /** The version of the record's collection the create was validated against, checked by the insert; null: none checked. */
  collectionVersion: number | null;
}

export type CreateOutcome = "ok" | "collection_not_found" | "collection_changed" | CapacityRefusal;
/** Each request's own answer: a batch run one by one may fail one request and not the others. */
export type Settled = { value: CreateOutcome } | { error: unknown };

const COLUMNS = "workspace_id, collection_id, id, fields, status, field_meta, entity_id, drifted, search_text, created_by, updated_by, " +
  "version, created_at, updated_at";

/**
 * The counter claimed for the batch's `$25` records under the limit `$24` (null: none). `u` adds
 * them on the locked counter row, re-checking the limit on its latest version as the usage store's
 * guarded update does; `s` seeds a counter the snapshot does not hold from an exact count plus
 * the batch (the statement does not see its own inserts), and a counter that a concurrent first
 * create committed meanwhile meets the conflict clause, which adds under the limit. `s` reads
 * nothing when `u` took or a counter exists (a full one refuses). `after`: what runs before `u`
 * locks the row.
 */
function claimSql(after: string): string {
  return `u as (update plan_usage set used = used + $25::bigint
      where workspace_id = $1 and kind = 'records' and ($24::bigint is null or used + $25::bigint <= $24::bigint)${after}
      returning 1),
    s as (insert into plan_usage as t (workspace_id, kind, used)
      select $1, 'records', k.n + $25::bigint from (select count(*) as n from collection_records where workspace_id = $1) k
      where ($24::bigint is null or k.n + $25::bigint <= $24::bigint) and not exists (select 1 from u)${after}
        and not exists (select 1 from plan_usage where workspace_id = $1 and kind = 'records')
      on conflict (workspace_id, kind) do update set used = t.used + $25::bigint
        where $24::bigint is null or t.used + $25::bigint <= $24::bigint
      returning 1)`;
}

/**
 * The batch's records and changes, one array per column ($2…$23, $26), in the batch's order; and
 * whether a record's collection is no longer at the version its create was validated against
 * (changed or gone since: `stale`, which makes the statement write nothing).
 */
const ROWS = `v as (select * from unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[],
      $9::text[], $10::text[], $11::text[], $12::int[], $13::text[], $14::text[], $15::uuid[], $16::text[], $17::text[], $18::text[],
      $19::text[], $20::text[], $21::text[], $22::text[], $23::int[], $26::int[])
    with ordinality as v (collection_id, id, fields, status, field_meta, entity_id, drifted, search_text, created_by, updated_by,
      version, created_at, updated_at, change_id, type, actor_id, actor_kind, at, diff, stage, outcome, change_version,
      collection_version, i)),
  stale as (select v.i from v left join collections k on k.workspace_id = $1 and k.id = v.collection_id
    where v.collection_version is not null and k.version is distinct from v.collection_version)`;
const FRESH = "not exists (select 1 from stale)";
const insertRecords = (gate: string) =>
  `w as (insert into collection_records (${COLUMNS})
      select $1, collection_id, id, fields::jsonb, status, field_meta::jsonb, entity_id, drifted, search_text, created_by, updated_by,
        version, created_at, updated_at
      from v ${gate} order by i
      returning id)`;
const INSERT_CHANGES = `c as (insert into record_changes (${CHANGE_COLUMNS})
      select $1, v.id, v.change_version, v.collection_id, v.change_id, v.type, v.actor_id, v.actor_kind, v.at, v.diff::jsonb,
        v.stage::jsonb, v.outcome::jsonb
      from v join w on w.id = v.id
      returning 1)`;

/**
 * Without a limit the claim cannot refuse, so it comes last: the counter row is locked only from
 * after the inserts to the commit. With one, the claim comes first and the records are inserted
 * only when it took (all of them: a batch is claimed whole or not at all).
 */
const CLAIMING_LAST = `with ${ROWS}, ${insertRecords(`where ${FRESH}`)}, ${INSERT_CHANGES},
  ${claimSql(" and exists (select 1 from c)")}
  select (select count(*) from c)::int as inserted, (select coalesce(json_agg(i), '[]') from stale) as stale`;
const CLAIMING_FIRST = `with ${ROWS}, ${claimSql(` and ${FRESH}`)},
  ${insertRecords("where exists (select 1 from u) or exists (select 1 from s)")}, ${INSERT_CHANGES}
  select (select count(*) from c)::int as inserted, (select coalesce(json_agg(i), '[]') from stale) as stale`;

/**
 * Inserts `items` (one workspace's, one limit) in one statement: all of them, or none when refused
 * or when a collection is stale (`stale`: the positions, from 1, of the items whose collection moved).
 */
async function insertAll(db: SqlDriver, items: readonly ClaimingCreate[]): Promise<{ inserted: number; stale: number[] }> {
  const col = <T>(f: (w: RecordWrite) => T) => items.map((i) => f(i.w));
  const limit = items[0]!.claim.limit;
  const [row] = await db.query<{ inserted: number; stale: number[] }>(limit === null ? CLAIMING_LAST : CLAIMING_FIRST, [
    items[0]!.w.record.workspace_id,
    col((w) => w.record.collection_id),
    col((w) => w.record.id),
    col((w) => json(w.record.fields)),
    col((w) => w.record.status),
    col((w) => json(w.record.field_meta)),
    col((w) => w.record.entity_id),
    // As text: postgres.js types an array by its first element, and a boolean would make the parameter `boolean`, not `boolean[]`.
    col((w) => String(w.record.drifted)),
    col((w) => w.record.search_text),
    col((w) => w.record.created_by),
    col((w) => w.record.updated_by),
    col((w) => w.record.version),
    col((w) => w.record.created_at),
    col((w) => w.record.updated_at),
    col((w) => w.change.id),
    col((w) => w.change.type),
    col((w) => w.change.actor_id),
    col((w) => w.change.actor_kind),
    col((w) => w.change.at),
    col((w) => json(w.change.diff)),
    col((w) => json(w.change.stage)),
    col((w) => json(w.change.outcome)),
    col((w) => w.change.version),
    limit,
    items.length,
    items.map((i) => i.collectionVersion),
    // Its plan does not depend on the values; PostgreSQL's default planned it on every execution (0.6 ms).
  ], PLAN_ONCE);
  return { inserted: Number(row?.inserted ?? 0), stale: (row?.stale ?? []).map(Number) };
}

/** One create alone: its record stored and counted, or the collection gone, or refused with the count it met. */
async function createOne(db: SqlDriver, item: ClaimingCreate): Promise<CreateOutcome> {
  try {
    // A collection that is gone (or being purged, whose row the purge holds until it commits)
    // fails the statement's foreign key check, which leaves nothing: no record, no unit.
    const { inserted, stale } = await insertAll(db, [item]);
    if (inserted === 1) return "ok";
    if (stale.length > 0) return "collection_changed";
  } catch (e) {
    if (sqlState(e) === FOREIGN_KEY_VIOLATION) return "collection_not_found";
    throw e;
  }
  // Refused: the count it was refused at (a workspace already past its limit without a counter has none yet).
  const [held] = await db.query<{ used: string | number }>(
    `select coalesce((select used from plan_usage where workspace_id = $1 and kind = 'records'),
                     (select count(*) from collection_records where workspace_id = $1)) as used`,
    [item.w.record.workspace_id],
  );
  return { refused: "capacity", used: Number(held?.used ?? 0) };
}

const settle = (p: Promise<CreateOutcome>): Promise<Settled> => p.then((value) => ({ value }), (error) => ({ error }));

/**
 * A batch as one statement. It applies entirely or not at all: refused by the limit (some may fit
 * alone), or failed by a key (a collection gone, a record id inserted twice), it wrote nothing, and
 * the creates run one by one in order, each answered as it would have been alone.
 */
export function claimingCreates(db: SqlDriver): AccountWrite<ClaimingCreate, Settled> {
  return {
    max: 16,
    fits: (batch, item) => batch[0]!.claim.limit === item.claim.limit && batch.every((b) => b.w.record.id !== item.w.record.id),
    async run(items) {
      if (items.length > 1) {
        try {
          const { inserted, stale } = await insertAll(db, items);
          if (inserted === items.length) return items.map(() => ({ value: "ok" }));
          if (stale.length > 0) {
            // The creates validated against a collection that moved are answered so; the others go out again.
            const out: Settled[] = [];
            for (const [n, item] of items.entries()) {
              out.push(stale.includes(n + 1) ? { value: "collection_changed" } : await settle(createOne(db, item)));
            }
            return out;
          }
        } catch (e) {
          const state = sqlState(e);
          if (state !== FOREIGN_KEY_VIOLATION && state !== UNIQUE_VIOLATION) throw e;
        }
      }
      const out: Settled[] = [];
      for (const item of items) out.push(await settle(createOne(db, item)));
      return out;
    },
  };
}
