import { isUuid } from "../../../core/kernel/ids.ts";
import type { ContactUnlock } from "../../../core/contacts/model.ts";
import type {
  ContactUnlockStore,
  UnlockBegun,
  UnlockContext,
  UnlockExpired,
  UnlockFinished,
  UnlockHold,
  UnlockLease,
  UnlockRecordWrite,
  UnlockResolution,
} from "../../../core/contacts/ports.ts";
import { AccountBatches, type AccountWrite, availableOf, ENTRY_COLUMNS, openAccount, toEntry } from "../credits/mod.ts";
import { CHECK_VIOLATION, iso, PLAN_ONCE, type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { toUnlock, UNLOCK_COLUMNS } from "./unlock-rows.ts";
import { beginBatch, beginFits, type BeginRequest, claimsOf, finishBatch, finishFits, type FinishRequest } from "./unlock-batches.ts";
import { recordWritesParam, recordWritesSql } from "./unlock-records.ts";
import { COLLECTION_COLUMNS, ENTITY_COLUMNS, RECORD_COLUMNS, toCollection, toEntity, toRecord } from "../collections/mod.ts";

/**
 * Contact unlocks (migrations 011, 031): the claims, the hold on the credit ledger and its lease,
 * each begin and finish one statement over them (ADR 041, 050, 055).
 */
export class PostgresContactUnlockStore implements ContactUnlockStore {
  // A workspace's unlock begins and finishes (its account's hot writers) combined: ADR 050.
  readonly #batches = new AccountBatches();
  readonly #begins: AccountWrite<BeginRequest, UnlockBegun> = { max: 16, fits: beginFits, run: (rs) => this.#beginMany(rs) };
  readonly #finishes: AccountWrite<FinishRequest, UnlockFinished> = { max: 16, fits: finishFits, run: (rs) => this.#finishMany(rs) };
  constructor(private readonly db: SqlDriver) {}

  /**
   * One statement: the claims, then the update of the account, the hold entry (as the ledger's
   * append writes them) and the hold's lease (migration 031). The account row is locked last, so its writers queue only behind the
   * hold entry's insert; the guard is the account's check (available ≥ 0): a hold beyond it fails
   * the whole statement (SQLSTATE 23514), claims included, so a refusal leaves nothing. `before`
   * reads the asked keys as they stood: the token of a claim taken over, the claim of a key
   * another request holds.
   */
  beginUnlocks(us: readonly ContactUnlock[], hold: UnlockHold | null, staleBefore: string): Promise<UnlockBegun> {
    const ws = us[0]?.workspace_id;
    return hold && ws ? this.#batches.run(ws, this.#begins, { us, hold, staleBefore }) : this.#begin(us, hold, staleBefore);
  }

  /** One begin alone; several in one statement, or one by one when that statement is refused. */
  async #beginMany(rs: readonly BeginRequest[]): Promise<UnlockBegun[]> {
    if (rs.length > 1) {
      try {
        const done = await beginBatch(this.db, rs[0]!.us[0]!.workspace_id, rs);
        if (done) return done;
      } catch (e) {
        if (sqlState(e) !== CHECK_VIOLATION) throw e;
      }
    }
    const out: UnlockBegun[] = [];
    for (const r of rs) out.push(await this.#begin(r.us, r.hold, r.staleBefore));
    return out;
  }

  async #begin(us: readonly ContactUnlock[], hold: UnlockHold | null, staleBefore: string): Promise<UnlockBegun> {
    const first = us[0];
    if (!first) return { ok: true, hold: null, claims: [] };
    const ws = first.workspace_id;
    const sql = `with asked as (select u.entity_id, u.kind from unnest($4::text[], $5::text[]) as u (entity_id, kind)),
      before as (
        -- By the key's prefix (= any: an index scan whatever the plan; a join with the unnest got a
        -- generic plan that hashed the workspace's unlocks); other kinds are dropped in the caller.
        select ${UNLOCK_COLUMNS} from radar_contact_unlocks where workspace_id = $1 and entity_id = any($4::text[])
      ),
      claimed as (
        insert into radar_contact_unlocks (${UNLOCK_COLUMNS})
        select $1, a.entity_id, a.kind, 'pending', null, 0, $2, $3, null from asked a
        ${hold ? "where exists (select 1 from credit_accounts where workspace_id = $1)" : ""}
        on conflict (workspace_id, entity_id, kind) do update
          set state = 'pending', value = null, credits = 0, token = excluded.token, claimed_at = excluded.claimed_at, settled_at = null
          where radar_contact_unlocks.state = 'pending' and radar_contact_unlocks.claimed_at < $6
        returning entity_id, kind
      )${
      hold
        ? `,
      account as (
        update credit_accounts set held = held + $7, seq = seq + 1
        from (select count(*) from claimed) as after_claims
        where workspace_id = $1
        returning balance, held, seq
      ),
      hold as (
        insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
        select $1, $2, seq, 'hold', 0, $7, balance, held, null, null, null, null, $8, $3 from account
        returning ${ENTRY_COLUMNS}
      ),
      lease as (
        insert into radar_unlock_leases (workspace_id, token, lease_until, entity_ids, kinds)
        select $1, $2, $9, $4, $5 from account
      )`
        : ""
    }
      select ${hold ? "(select row_to_json(h) from hold h)" : "null"} as hold,
        (select coalesce(json_agg(c.entity_id || ':' || c.kind), '[]') from claimed c) as claimed,
        (select coalesce(json_agg(row_to_json(b)), '[]') from before b) as before`;
    const params = [
      ws,
      first.token,
      first.claimed_at,
      us.map((u) => u.entity_id),
      us.map((u) => u.kind),
      staleBefore,
      ...(hold ? [hold.amount, hold.reason, hold.lease_until] : []),
    ];
    for (let attempt = 0;; attempt++) {
      let row: Row | undefined;
      try {
        [row] = await this.db.query<Row>(sql, params, PLAN_ONCE);
      } catch (e) {
        if (sqlState(e) !== CHECK_VIOLATION || !hold) throw e;
        return { ok: false, reason: "insufficient", required: hold.amount, available: (await availableOf(this.db, ws)) ?? 0 };
      }
      const held = row!.hold as Row | null;
      if (hold && !held) {
        // The workspace has no account yet (nothing was claimed): its first entry opens it.
        if (attempt > 0) return { ok: false, reason: "insufficient", required: hold.amount, available: 0 };
        await openAccount(this.db, ws);
        continue;
      }
      const mine = new Set(row!.claimed as string[]);
      const before = new Map((row!.before as Row[]).map((r) => [`${r.entity_id}:${r.kind}`, toUnlock(r)]));
      const [claims] = await claimsOf(this.db, ws, [us], mine, before);
      return { ok: true, hold: held ? toEntry(held) : null, claims: claims! };
    }
  }

  /**
   * One statement: the token's lease ended, the claims it still holds settled, and its hold
   * resolved by the entry capturing their credits (the account's row updated as the ledger's
   * append does). The
   * migration's check on resolutions (capture ≤ hold) and the account's (available ≥ 0) refuse
   * the whole statement rather than part of it; a hold resolved before lets nothing settle. The
   * records showing what settled are written in the same statement (unlock-records.ts).
   */
  finishUnlocks(
    workspaceId: string,
    token: string,
    us: readonly ContactUnlock[],
    r: UnlockResolution,
    records?: readonly UnlockRecordWrite[],
  ): Promise<UnlockFinished> {
    if (!isUuid(workspaceId) || !isUuid(token)) {
      return Promise.resolve({ settled: [], resolution: null, ...(records ? { written: [] } : {}) });
    }
    return this.#batches.run(workspaceId, this.#finishes, { workspaceId, token, us, resolution: r, records });
  }

  /** One finish alone; several in one statement, or one by one when that statement is refused. */
  async #finishMany(rs: readonly FinishRequest[]): Promise<UnlockFinished[]> {
    const ws = rs[0]!.workspaceId;
    if (rs.length > 1) {
      try {
        return await finishBatch(this.db, ws, rs);
      } catch (e) {
        const state = sqlState(e);
        if (state !== UNIQUE_VIOLATION && state !== CHECK_VIOLATION) throw e;
      }
    }
    const out: UnlockFinished[] = [];
    for (const r of rs) out.push(await this.#finish(ws, r.token, r.us, r.resolution, r.records));
    return out;
  }

  async #finish(
    workspaceId: string,
    token: string,
    us: readonly ContactUnlock[],
    r: UnlockResolution,
    records?: readonly UnlockRecordWrite[],
  ): Promise<UnlockFinished> {
    const written = (row: Row | undefined) => (records ? { written: row ? (row.written as string[]) : [] } : {});
    if (!isUuid(workspaceId) || !isUuid(token)) return { settled: [], resolution: null, ...written(undefined) };
    for (let attempt = 0;; attempt++) {
      try {
        const [row] = await this.db.query<Row>(
          `with lease as (
             -- First, as the sweep's expire does: the lease row is the first lock either takes.
             delete from radar_unlock_leases where workspace_id = $1 and token = $2 returning token
           ),
           hold as (
             select h.held from credit_entries h
             where h.workspace_id = $1 and h.id = $2 and h.type = 'hold'
               and not exists (select 1 from credit_entries x where x.workspace_id = $1 and x.hold_id = $2)
           ),
           settled as (
             update radar_contact_unlocks c set state = s.state, value = s.value, credits = s.credits, settled_at = $3
             from unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::int[]) as s (entity_id, kind, state, value, credits),
               (select count(*) from lease) as after_lease
             where c.workspace_id = $1 and c.token = $2 and c.state = 'pending' and c.entity_id = s.entity_id and c.kind = s.kind
               and (exists (select 1 from hold) or not exists (select 1 from credit_entries h where h.workspace_id = $1 and h.id = $2))
             returning 1 as ord, c.entity_id, c.kind, c.state, c.credits
           ),
           ${recordWritesSql("$12")},
           account as (
             update credit_accounts a set balance = a.balance - t.capture, held = a.held - hold.held, seq = a.seq + 1
             from hold, (select coalesce(sum(credits), 0)::bigint as capture from settled) t, (select count(*) from written) as after_records
             where a.workspace_id = $1
             returning a.balance, a.held, a.seq, t.capture, hold.held as released
           ),
           entry as (
             insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
             select $1, $9, seq, case when capture > 0 then 'capture' else 'release' end, -capture, -released, balance, held,
               null, null, $2, null, $10, $11
             from account
             returning ${ENTRY_COLUMNS}
           )
           select (select row_to_json(e) from entry e) as resolution,
             (select coalesce(json_agg(s.entity_id || ':' || s.kind), '[]') from settled s) as settled,
             (select coalesce(json_agg(w.id), '[]') from written w) as written`,
          [
            workspaceId,
            token,
            us[0]?.settled_at ?? r.at,
            us.map((u) => u.entity_id),
            us.map((u) => u.kind),
            us.map((u) => u.state),
            us.map((u) => u.value),
            us.map((u) => u.credits),
            r.id,
            r.reason,
            r.at,
            recordWritesParam((records ?? []).map((w) => ({ ord: 1, w }))),
          ],
          PLAN_ONCE,
        );
        const resolution = row!.resolution as Row | null;
        if (resolution) return { settled: row!.settled as string[], resolution: toEntry(resolution), ...written(row) };
        // No hold of this token, or one resolved before (then nothing settled).
        const [prior] = await this.db.query<Row>(
          `select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = $2`,
          [workspaceId, token],
        );
        return { settled: row!.settled as string[], resolution: prior ? toEntry(prior) : null, ...written(row) };
      } catch (e) {
        // A concurrent finish or expire resolved the hold first: the next round sees its
        // resolution. The statement meets either the resolution's unique key or, when the other
        // resolution left less held than this hold (the account row is re-read once its lock is
        // granted, the hold's state is not), the account's check (held ≥ 0).
        const state = sqlState(e);
        if ((state !== UNIQUE_VIOLATION && state !== CHECK_VIOLATION) || attempt >= 3) throw e;
      }
    }
  }

  async expiredUnlocks(now: string, limit: number): Promise<UnlockLease[]> {
    const rows = await this.db.query<Row>(
      `select workspace_id, token, lease_until from radar_unlock_leases where lease_until < $1 order by lease_until, token limit $2`,
      [now, limit],
    );
    return rows.map((r) => ({ workspace_id: r.workspace_id as string, token: r.token as string, lease_until: iso(r.lease_until) }));
  }

  /**
   * One statement, only while the token holds its lease: the lease deleted (the first lock, as a
   * finish takes it: a finish and an expire of one token queue on that row, never deadlock), the
   * token's pending claims dropped by their keys, and its hold resolved by the entry capturing
   * its settled claims (none here: a finish settles and resolves in one statement). A concurrent
   * finish that resolved first leaves no lease, so this changes nothing; one that resolves after
   * meets the resolution's unique key and settles nothing on its retry.
   */
  async expireUnlock(workspaceId: string, token: string, r: UnlockResolution): Promise<UnlockExpired> {
    if (!isUuid(workspaceId) || !isUuid(token)) return { dropped: 0, resolution: null };
    for (let attempt = 0;; attempt++) {
      try {
        const [row] = await this.db.query<Row>(
          `with lease as (
             delete from radar_unlock_leases where workspace_id = $1 and token = $2 returning entity_ids, kinds
           ),
           hold as (
             select h.held from credit_entries h
             where exists (select 1 from lease) and h.workspace_id = $1 and h.id = $2 and h.type = 'hold'
               and not exists (select 1 from credit_entries x where x.workspace_id = $1 and x.hold_id = $2)
           ),
           claims as (
             select c.entity_id, c.kind, c.state, c.credits
             from lease l cross join lateral unnest(l.entity_ids, l.kinds) as k (entity_id, kind)
             join radar_contact_unlocks c on c.workspace_id = $1 and c.entity_id = k.entity_id and c.kind = k.kind and c.token = $2
           ),
           dropped as (
             delete from radar_contact_unlocks c using claims k
             where exists (select 1 from hold) and c.workspace_id = $1 and c.entity_id = k.entity_id and c.kind = k.kind
               and c.token = $2 and c.state = 'pending'
             returning c.entity_id
           ),
           account as (
             update credit_accounts a set balance = a.balance - t.capture, held = a.held - hold.held, seq = a.seq + 1
             from hold, (select coalesce(sum(credits) filter (where state <> 'pending'), 0)::bigint as capture from claims) t,
               (select count(*) from dropped) as after_drops
             where a.workspace_id = $1
             returning a.balance, a.held, a.seq, t.capture, hold.held as released
           ),
           entry as (
             insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
             select $1, $3, seq, case when capture > 0 then 'capture' else 'release' end, -capture, -released, balance, held,
               null, null, $2, null, $4, $5
             from account
             returning ${ENTRY_COLUMNS}
           )
           select (select row_to_json(e) from entry e) as resolution, (select count(*) from dropped)::int as dropped`,
          [workspaceId, token, r.id, r.reason, r.at],
        );
        const resolution = row!.resolution as Row | null;
        if (resolution) return { dropped: Number(row!.dropped), resolution: toEntry(resolution) };
        const [prior] = await this.db.query<Row>(
          `select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = $2`,
          [workspaceId, token],
        );
        return { dropped: Number(row!.dropped), resolution: prior ? toEntry(prior) : null };
      } catch (e) {
        // A concurrent finish resolved the hold first (as in `#finish`): the next round finds no lease.
        const state = sqlState(e);
        if ((state !== UNIQUE_VIOLATION && state !== CHECK_VIOLATION) || attempt >= 3) throw e;
      }
    }
  }

  async unlocksOf(workspaceId: string, entityIds: readonly string[]): Promise<ContactUnlock[]> {
    const wanted = [...new Set(entityIds)];
    if (!isUuid(workspaceId) || wanted.length === 0) return [];
    const rows = await this.db.query<Row>(
      `select ${UNLOCK_COLUMNS} from radar_contact_unlocks where workspace_id = $1 and entity_id = any($2::text[])`,
      [workspaceId, wanted],
      PLAN_ONCE,
    );
    return rows.map(toUnlock);
  }

  /**
   * One statement, each part by a primary key (or the unlocks' key prefix) whatever the values, so
   * one generic plan (PLAN_ONCE): the collection, its records asked for, the entities they link
   * (a record's `entity_id` is text: one that is not a uuid links nothing) and their unlocks.
   * Every part is scoped by the workspace; records and entities come back as `json_agg` rows and
   * go through the stores' own mappers (text timestamps; the unlocks' timestamptz read by `iso`).
   */
  async unlockContext(workspaceId: string, collectionId: string, recordIds: readonly string[]): Promise<UnlockContext | null> {
    if (!isUuid(workspaceId) || !isUuid(collectionId)) return null;
    const wanted = [...new Set(recordIds)].filter(isUuid);
    const [row] = await this.db.query<Row>(
      `with recs as (
         select ${RECORD_COLUMNS} from collection_records where workspace_id = $1 and collection_id = $2 and id = any($3::uuid[])
       ),
       ents as (
         select ${ENTITY_COLUMNS} from entities
         where workspace_id = $1 and id = any(array(
           select case when entity_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then entity_id::uuid end from recs
         ))
       )
       select (select row_to_json(c) from (select ${COLLECTION_COLUMNS} from collections where workspace_id = $1 and id = $2) c) as collection,
         (select coalesce(json_agg(r), '[]') from recs r) as records,
         (select coalesce(json_agg(e), '[]') from ents e) as entities,
         (select coalesce(json_agg(u), '[]') from (
           select ${UNLOCK_COLUMNS} from radar_contact_unlocks where workspace_id = $1 and entity_id = any(array(select id::text from ents))
         ) u) as unlocks`,
      [workspaceId, collectionId, wanted],
      PLAN_ONCE,
    );
    if (!row?.collection) return null;
    return {
      collection: toCollection(row.collection as Row),
      records: (row.records as Row[]).map(toRecord),
      entities: (row.entities as Row[]).map(toEntity),
      unlocks: (row.unlocks as Row[]).map(toUnlock),
    };
  }
}
