import type { BillingOffer, Contract, OfferPlan, StoredOfferStatus } from "../../../core/offers/model.ts";
import type { ContractStore, GrantDue, OfferFilter, OfferStore } from "../../../core/offers/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { inTransaction, iso, isoOrNull, type SqlDriver } from "../driver.ts";
import { json, type Row, str, strOrNull } from "../row-values.ts";

export const OFFER_COLUMNS = `workspace_id, id, plan, limits, price, term_months, radar_credits, expires_at, note, status, revision,
  supersedes, superseded_by, created_at, updated_at, accepted_at, cancelled_at, superseded_at`;

const jsonOf = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

export function toOffer(r: Row): BillingOffer {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    plan: r.plan as OfferPlan,
    limits: r.limits === null || r.limits === undefined ? null : jsonOf(r.limits),
    price: jsonOf(r.price),
    term_months: Number(r.term_months),
    radar_credits: r.radar_credits === null || r.radar_credits === undefined ? null : Number(r.radar_credits),
    expires_at: iso(r.expires_at),
    note: strOrNull(r.note),
    status: r.status as StoredOfferStatus,
    revision: Number(r.revision),
    supersedes: strOrNull(r.supersedes),
    superseded_by: strOrNull(r.superseded_by),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    accepted_at: isoOrNull(r.accepted_at),
    cancelled_at: isoOrNull(r.cancelled_at),
    superseded_at: isoOrNull(r.superseded_at),
  };
}

async function insertOffer(db: SqlDriver, o: BillingOffer): Promise<void> {
  await db.query(
    `insert into billing_offers (${OFFER_COLUMNS})
     values ($1, $2, $3, $4::text::jsonb, $5::text::jsonb, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      o.workspace_id,
      o.id,
      o.plan,
      json(o.limits),
      json(o.price),
      o.term_months,
      o.radar_credits,
      o.expires_at,
      o.note,
      o.status,
      o.revision,
      o.supersedes,
      o.superseded_by,
      o.created_at,
      o.updated_at,
      o.accepted_at,
      o.cancelled_at,
      o.superseded_at,
    ],
  );
}

/**
 * Offers in `billing_offers` (migration 018). A transition is one guarded update on the offer's
 * row (`where status = 'open'`), which PostgreSQL re-checks on the locked row: of concurrent
 * transitions exactly one matches. A reissue is that update and the new offer's insert in one
 * transaction.
 */
export class PostgresOfferStore implements OfferStore {
  constructor(private db: SqlDriver) {}

  insert(offer: BillingOffer): Promise<void> {
    return insertOffer(this.db, offer);
  }

  async get(offerId: string): Promise<BillingOffer | null> {
    if (!isUuid(offerId)) return null;
    const rows = await this.db.query<Row>(`select ${OFFER_COLUMNS} from billing_offers where id = $1`, [offerId]);
    return rows[0] ? toOffer(rows[0]) : null;
  }

  async list(filter: OfferFilter, now: string, p: OffsetPage): Promise<Listed<BillingOffer>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replaceAll("?", `$${params.length}`));
    };
    if (filter.workspace_id !== undefined) {
      if (!isUuid(filter.workspace_id)) return { items: [], total: 0 };
      add("workspace_id = ?", filter.workspace_id);
    }
    if (filter.status === "open") add("status = 'open' and expires_at > ?", now);
    else if (filter.status === "expired") add("status = 'open' and expires_at <= ?", now);
    else if (filter.status) add("status = ?", filter.status);
    const cond = where.length > 0 ? `where ${where.join(" and ")}` : "";
    const [rows, total] = await Promise.all([
      this.db.query<Row>(
        `select ${OFFER_COLUMNS} from billing_offers ${cond}
         order by created_at desc, id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, p.limit, p.offset],
      ),
      this.db.query<{ n: string | number }>(`select count(*) as n from billing_offers ${cond}`, params),
    ]);
    return { items: rows.map(toOffer), total: Number(total[0]?.n ?? 0) };
  }

  async close(offerId: string, to: "accepted" | "cancelled", at: string): Promise<BillingOffer | null> {
    if (!isUuid(offerId)) return null;
    const rows = await this.db.query<Row>(
      `update billing_offers set status = $2, updated_at = $3,
         accepted_at = case when $2 = 'accepted' then $3::timestamptz else accepted_at end,
         cancelled_at = case when $2 = 'cancelled' then $3::timestamptz else cancelled_at end,
         effects_pending = ($2 = 'accepted')
       where id = $1 and status = 'open' and expires_at > $3::timestamptz
       returning ${OFFER_COLUMNS}`,
      [offerId, to, at],
    );
    return rows[0] ? toOffer(rows[0]) : null;
  }

  async pendingEffects(acceptedBefore: string, limit: number): Promise<BillingOffer[]> {
    const rows = await this.db.query<Row>(
      `select ${OFFER_COLUMNS} from billing_offers where effects_pending and accepted_at <= $1 order by accepted_at limit $2`,
      [acceptedBefore, limit],
    );
    return rows.map(toOffer);
  }

  async hasPendingEffects(offerId: string): Promise<boolean> {
    if (!isUuid(offerId)) return false;
    const rows = await this.db.query<Row>("select effects_pending from billing_offers where id = $1", [offerId]);
    return rows[0]?.effects_pending === true;
  }

  async settleEffects(offerId: string): Promise<void> {
    if (!isUuid(offerId)) return;
    await this.db.query("update billing_offers set effects_pending = false where id = $1 and effects_pending", [offerId]);
  }

  supersede(offerId: string, next: BillingOffer, at: string): Promise<{ previous: BillingOffer; next: BillingOffer } | null> {
    if (!isUuid(offerId)) return Promise.resolve(null);
    return inTransaction<{ previous: BillingOffer; next: BillingOffer } | null>(this.db, async (tx, abort) => {
      const rows = await tx.query<Row>(
        `update billing_offers set status = 'superseded', superseded_by = $2, superseded_at = $3, updated_at = $3
         where id = $1 and status = 'open'
         returning ${OFFER_COLUMNS}`,
        [offerId, next.id, at],
      );
      if (!rows[0]) return abort(null);
      await insertOffer(tx, next);
      return { previous: toOffer(rows[0]), next };
    });
  }
}

export const CONTRACT_COLUMNS =
  "workspace_id, plan, limits, price, term_months, note, started_at, term_ends_at, source, offer_id, updated_at";

export function toContract(r: Row): Contract {
  return {
    workspace_id: str(r.workspace_id),
    plan: r.plan as OfferPlan,
    limits: r.limits === null || r.limits === undefined ? null : jsonOf(r.limits),
    price: jsonOf(r.price),
    term_months: Number(r.term_months),
    note: strOrNull(r.note),
    started_at: iso(r.started_at),
    term_ends_at: iso(r.term_ends_at),
    source: r.source as Contract["source"],
    offer_id: strOrNull(r.offer_id),
    updated_at: iso(r.updated_at),
  };
}

const toDue = (r: Row): GrantDue => ({
  workspace_id: str(r.workspace_id),
  contract_started_at: iso(r.started_at),
  due_at: iso(r.next_grant_at),
});

/**
 * One contract per workspace in `billing_contracts` (migration 018); a put replaces it. Its
 * schedule is the row's `next_grant_at` (migration 026): written with it, moved by a guarded update.
 */
export class PostgresContractStore implements ContractStore {
  constructor(private db: SqlDriver) {}

  async get(workspaceId: string): Promise<Contract | null> {
    if (!isUuid(workspaceId)) return null;
    const rows = await this.db.query<Row>(`select ${CONTRACT_COLUMNS} from billing_contracts where workspace_id = $1`, [workspaceId]);
    return rows[0] ? toContract(rows[0]) : null;
  }

  async getMany(workspaceIds: string[]): Promise<Map<string, Contract>> {
    const ids = workspaceIds.filter(isUuid);
    const out = new Map<string, Contract>();
    if (ids.length === 0) return out;
    const rows = await this.db.query<Row>(`select ${CONTRACT_COLUMNS} from billing_contracts where workspace_id = any($1::uuid[])`, [ids]);
    for (const r of rows) out.set(str(r.workspace_id), toContract(r));
    return out;
  }

  async put(c: Contract, firstDue: string): Promise<void> {
    await this.db.query(
      `insert into billing_contracts (${CONTRACT_COLUMNS}, next_grant_at)
       values ($1, $2, $3::text::jsonb, $4::text::jsonb, $5, $6, $7, $8, $9, $10, $11, $12)
       on conflict (workspace_id) do update set plan = excluded.plan, limits = excluded.limits, price = excluded.price,
         term_months = excluded.term_months, note = excluded.note, started_at = excluded.started_at,
         term_ends_at = excluded.term_ends_at, source = excluded.source, offer_id = excluded.offer_id,
         updated_at = excluded.updated_at, next_grant_at = excluded.next_grant_at`,
      [
        c.workspace_id,
        c.plan,
        json(c.limits),
        json(c.price),
        c.term_months,
        c.note,
        c.started_at,
        c.term_ends_at,
        c.source,
        c.offer_id,
        c.updated_at,
        firstDue,
      ],
    );
  }

  async dueGrants(now: string, limit: number): Promise<GrantDue[]> {
    const rows = await this.db.query<Row>(
      `select workspace_id, started_at, next_grant_at from billing_contracts
       where next_grant_at is not null and next_grant_at <= $1 order by next_grant_at limit $2`,
      [now, limit],
    );
    return rows.map(toDue);
  }

  async grantsOf(workspaceId: string): Promise<GrantDue[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await this.db.query<Row>(
      "select workspace_id, started_at, next_grant_at from billing_contracts where workspace_id = $1 and next_grant_at is not null",
      [workspaceId],
    );
    return rows.map(toDue);
  }

  async advanceGrant(due: GrantDue, next: string | null): Promise<void> {
    if (!isUuid(due.workspace_id)) return;
    await this.db.query(
      `update billing_contracts set next_grant_at = $4
       where workspace_id = $1 and started_at = $2 and next_grant_at = $3`,
      [due.workspace_id, due.contract_started_at, due.due_at, next],
    );
  }

  async delete(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) return false;
    const rows = await this.db.query("delete from billing_contracts where workspace_id = $1 returning workspace_id", [workspaceId]);
    return rows.length > 0;
  }
}
