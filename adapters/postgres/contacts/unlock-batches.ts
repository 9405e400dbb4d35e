/**
 * Several requests' unlock begins, or finishes, of one workspace as one statement (ADR 050): the
 * account row updated once for all of them, each request keeping its own ledger entry (its hold,
 * its resolution) with its own `seq` and running totals, as if they had been written one after
 * the other in the batch's order. A batch applies entirely or not at all: a statement refused by a
 * check (a hold beyond what is available) or a unique key (a hold resolved meanwhile) writes
 * nothing, and the caller runs the requests one by one, which answers each as it would alone.
 */
import type { ContactUnlock } from "../../../core/contacts/model.ts";
import type {
  UnlockBegun,
  UnlockClaim,
  UnlockFinished,
  UnlockHold,
  UnlockRecordWrite,
  UnlockResolution,
} from "../../../core/contacts/ports.ts";
import { ENTRY_COLUMNS, toEntry } from "../credits/mod.ts";
import { PLAN_ONCE, type SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { toUnlock, UNLOCK_COLUMNS } from "./unlock-rows.ts";
import { recordWritesParam, recordWritesSql } from "./unlock-records.ts";

export interface BeginRequest {
  us: readonly ContactUnlock[];
  hold: UnlockHold;
  staleBefore: string;
}

export interface FinishRequest {
  workspaceId: string;
  token: string;
  us: readonly ContactUnlock[];
  resolution: UnlockResolution;
  /** The records showing what settles, written in the same statement (unlock-records.ts). */
  records?: readonly UnlockRecordWrite[];
}

const keyOf = (u: { entity_id: string; kind: string }) => `${u.entity_id}:${u.kind}`;

/** No key claimed twice in one statement (an upsert may not touch a row twice). */
export const beginFits = (batch: readonly BeginRequest[], r: BeginRequest): boolean => {
  const taken = new Set(batch.flatMap((b) => b.us.map(keyOf)));
  return r.us.every((u) => !taken.has(keyOf(u)));
};

/** One resolution per hold in one statement. */
export const finishFits = (batch: readonly FinishRequest[], r: FinishRequest): boolean => batch.every((b) => b.token !== r.token);

/**
 * Each request's claims as `beginUnlocks` answers them: claimed (and whose dead claim it took
 * over), or the claim as it stands. A key neither claimed nor seen by the statement (another
 * request claimed it after the statement's snapshot) is read as it stands now, one read for all.
 */
export async function claimsOf(
  db: SqlDriver,
  workspaceId: string,
  requests: readonly (readonly ContactUnlock[])[],
  mine: ReadonlySet<string>,
  before: Map<string, ContactUnlock>,
): Promise<UnlockClaim[][]> {
  const unseen = requests.flat().filter((u) => !mine.has(keyOf(u)) && !before.has(keyOf(u)));
  if (unseen.length > 0) {
    const rows = await db.query<Row>(
      `select ${UNLOCK_COLUMNS} from radar_contact_unlocks
       where workspace_id = $1 and (entity_id, kind) in (select * from unnest($2::text[], $3::text[]))`,
      [workspaceId, unseen.map((u) => u.entity_id), unseen.map((u) => u.kind)],
    );
    for (const r of rows) before.set(keyOf(r as { entity_id: string; kind: string }), toUnlock(r));
  }
  return requests.map((us) =>
    us.map((u): UnlockClaim =>
      mine.has(keyOf(u))
        ? { claimed: true, took_over: before.get(keyOf(u))?.token ?? null }
        : { claimed: false, existing: before.get(keyOf(u))! }
    )
  );
}

/**
 * The begins of `requests` (each with a hold; keys disjoint across them) in one statement: every
 * claim, then the account's `held` raised by the holds' sum, one hold entry and one lease per request. Null
 * when the statement wrote nothing: the holds together exceed what is available (the account's
 * check refuses the statement; some may fit alone), or the workspace has no account yet.
 */
export async function beginBatch(db: SqlDriver, workspaceId: string, requests: readonly BeginRequest[]): Promise<UnlockBegun[] | null> {
  const asked = requests.flatMap((r, i) => r.us.map((u) => ({ u, ord: i + 1 })));
  const [row] = await db.query<Row>(
    `with req as (
       select * from unnest($2::uuid[], $3::timestamptz[], $4::bigint[], $5::text[], $10::timestamptz[])
         with ordinality as r (token, claimed_at, amount, reason, lease_until, ord)
     ),
     asked as (select * from unnest($6::text[], $7::text[], $8::bigint[]) as a (entity_id, kind, ord)),
     before as (
       select ${UNLOCK_COLUMNS} from radar_contact_unlocks where workspace_id = $1 and entity_id = any($6::text[])
     ),
     claimed as (
       insert into radar_contact_unlocks (${UNLOCK_COLUMNS})
       select $1, a.entity_id, a.kind, 'pending', null, 0, r.token, r.claimed_at, null
       from asked a join req r on r.ord = a.ord
       where exists (select 1 from credit_accounts where workspace_id = $1)
       on conflict (workspace_id, entity_id, kind) do update
         set state = 'pending', value = null, credits = 0, token = excluded.token, claimed_at = excluded.claimed_at, settled_at = null
         where radar_contact_unlocks.state = 'pending' and radar_contact_unlocks.claimed_at < $9
       returning entity_id, kind
     ),
     total as (select count(*) as k, sum(amount)::bigint as amount from req),
     account as (
       update credit_accounts set held = held + total.amount, seq = seq + total.k
       from total, (select count(*) from claimed) as after_claims
       where workspace_id = $1
       returning balance, held, seq
     ),
     hold as (
       insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
       select $1, r.token, a.seq - total.k + r.ord, 'hold', 0, r.amount, a.balance, a.held - total.amount + r.running,
         null, null, null, null, r.reason, r.claimed_at
       from account a, total, (select req.*, sum(amount) over (order by ord) as running from req) r
       returning ${ENTRY_COLUMNS}
     ),
     lease as (
       insert into radar_unlock_leases (workspace_id, token, lease_until, entity_ids, kinds)
       select $1, r.token, r.lease_until, k.entity_ids, k.kinds
       from req r join (select ord, array_agg(entity_id) as entity_ids, array_agg(kind) as kinds from asked group by ord) k on k.ord = r.ord
       where exists (select 1 from account)
     )
     select (select coalesce(json_agg(row_to_json(h)), '[]') from hold h) as holds,
       (select coalesce(json_agg(c.entity_id || ':' || c.kind), '[]') from claimed c) as claimed,
       (select coalesce(json_agg(row_to_json(b)), '[]') from before b) as before`,
    [
      workspaceId,
      requests.map((r) => r.us[0]!.token),
      requests.map((r) => r.us[0]!.claimed_at),
      requests.map((r) => r.hold.amount),
      requests.map((r) => r.hold.reason),
      asked.map((a) => a.u.entity_id),
      asked.map((a) => a.u.kind),
      asked.map((a) => a.ord),
      // The earliest of the requests' thresholds: a claim is taken over only when stale for all of them.
      requests.map((r) => r.staleBefore).reduce((a, b) => (a < b ? a : b)),
      requests.map((r) => r.hold.lease_until),
    ],
    PLAN_ONCE,
  );
  const holds = new Map((row!.holds as Row[]).map((h) => [h.id as string, toEntry(h)]));
  if (holds.size !== requests.length) return null;
  const mine = new Set(row!.claimed as string[]);
  const before = new Map((row!.before as Row[]).map((r) => [keyOf(r as { entity_id: string; kind: string }), toUnlock(r)]));
  const claims = await claimsOf(db, workspaceId, requests.map((r) => r.us), mine, before);
  return requests.map((r, i) => ({ ok: true, hold: holds.get(r.us[0]!.token)!, claims: claims[i]! }));
}

/**
 * The finishes of `requests` (distinct tokens) in one statement: each token's lease ended, its pending claims
 * settled, each unresolved hold resolved by its own entry capturing its settled claims' credits,
 * the account updated once by the sums. A token whose hold was resolved before settles nothing and
 * answers that resolution; a token without a hold settles only.
 */
export async function finishBatch(db: SqlDriver, workspaceId: string, requests: readonly FinishRequest[]): Promise<UnlockFinished[]> {
  const settles = requests.flatMap((r, i) => r.us.map((u) => ({ u, ord: i + 1 })));
  const [row] = await db.query<Row>(
    `with req as (
       select * from unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[], $6::timestamptz[])
         with ordinality as r (token, resolution_id, reason, at, settled_at, ord)
     ),
     s as (select * from unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::int[], $12::bigint[]) as s (entity_id, kind, state, value, credits, ord)),
     lease as (
       -- First, as the sweep's expire does: the lease rows are the first locks either takes.
       delete from radar_unlock_leases where workspace_id = $1 and token = any($2::uuid[]) returning token
     ),
     hold as (
       select r.ord, h.held from req r join credit_entries h on h.workspace_id = $1 and h.id = r.token and h.type = 'hold'
       where not exists (select 1 from credit_entries x where x.workspace_id = $1 and x.hold_id = r.token)
     ),
     settled as (
       update radar_contact_unlocks c set state = s.state, value = s.value, credits = s.credits, settled_at = r.settled_at
       from s join req r on r.ord = s.ord, (select count(*) from lease) as after_lease
       where c.workspace_id = $1 and c.token = r.token and c.state = 'pending' and c.entity_id = s.entity_id and c.kind = s.kind
         and (exists (select 1 from hold where hold.ord = r.ord)
           or not exists (select 1 from credit_entries h where h.workspace_id = $1 and h.id = r.token))
       returning r.ord, c.entity_id, c.kind, c.state, c.credits
     ),
     ${recordWritesSql("$13")},
     per as (
       select h.ord, h.held, coalesce((select sum(x.credits) from settled x where x.ord = h.ord), 0)::bigint as capture from hold h
     ),
     total as (select count(*) as k, coalesce(sum(capture), 0)::bigint as capture, coalesce(sum(held), 0)::bigint as released from per),
     account as (
       update credit_accounts a set balance = a.balance - total.capture, held = a.held - total.released, seq = a.seq + total.k
       from total, (select count(*) from written) as after_records where a.workspace_id = $1 and total.k > 0
       returning a.balance, a.held, a.seq
     ),
     entry as (
       insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
       select $1, r.resolution_id, a.seq - total.k + p.n, case when p.capture > 0 then 'capture' else 'release' end, -p.capture, -p.held,
         a.balance + total.capture - p.captured, a.held + total.released - p.released, null, null, r.token, null, r.reason, r.at
       from account a, total,
         (select per.*, row_number() over w as n, sum(capture) over w as captured, sum(held) over w as released from per window w as (order by ord)) p
         join req r on r.ord = p.ord
       returning ${ENTRY_COLUMNS}
     )
     select (select coalesce(json_agg(row_to_json(e)), '[]') from entry e) as resolutions,
       (select coalesce(json_agg(json_build_array(s.ord, s.entity_id || ':' || s.kind)), '[]') from settled s) as settled,
       (select coalesce(json_agg(json_build_array(w.ord, w.id)), '[]') from written w) as written`,
    [
      workspaceId,
      requests.map((r) => r.token),
      requests.map((r) => r.resolution.id),
      requests.map((r) => r.resolution.reason),
      requests.map((r) => r.resolution.at),
      requests.map((r) => r.us[0]?.settled_at ?? r.resolution.at),
      settles.map((s) => s.u.entity_id),
      settles.map((s) => s.u.kind),
      settles.map((s) => s.u.state),
      settles.map((s) => s.u.value),
      settles.map((s) => s.u.credits),
      settles.map((s) => s.ord),
      recordWritesParam(requests.flatMap((r, i) => (r.records ?? []).map((w) => ({ ord: i + 1, w })))),
    ],
    PLAN_ONCE,
  );
  const resolutions = new Map((row!.resolutions as Row[]).map((e) => [e.hold_id as string, toEntry(e)]));
  const settled = requests.map((): string[] => []);
  for (const [ord, key] of row!.settled as [number, string][]) settled[ord - 1]!.push(key);
  const written = requests.map((): string[] => []);
  for (const [ord, id] of row!.written as [number, string][]) written[ord - 1]!.push(id);
  // Tokens without a resolution of their own: resolved before, or no hold at all.
  const open = requests.filter((r) => !resolutions.has(r.token)).map((r) => r.token);
  if (open.length > 0) {
    const prior = await db.query<Row>(`select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = any($2::uuid[])`, [
      workspaceId,
      open,
    ]);
    for (const e of prior) resolutions.set(e.hold_id as string, toEntry(e));
  }
  return requests.map((r, i) => ({
    settled: settled[i]!,
    resolution: resolutions.get(r.token) ?? null,
    ...(r.records ? { written: written[i]! } : {}),
  }));
}
