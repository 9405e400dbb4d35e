import { isUuid } from "../../../core/kernel/ids.ts";
import type { BillingAccount, BillingAccountStore } from "../../../core/billing/account.ts";
import { FOREIGN_KEY_VIOLATION, type SqlDriver, sqlState } from "../driver.ts";
import type { Row } from "../row-values.ts";

export const COLUMNS =
  "workspace_id, customer_id, subscription_id, status, plan, current_period_start, current_period_end, last_event_created, updated_at, version";

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString());

export function toAccount(r: Row): BillingAccount {
  return {
    workspace_id: r.workspace_id as string,
    customer_id: (r.customer_id as string | null) ?? null,
    subscription_id: (r.subscription_id as string | null) ?? null,
    status: r.status as BillingAccount["status"],
    plan: (r.plan as BillingAccount["plan"]) ?? null,
    current_period_start: iso(r.current_period_start),
    current_period_end: iso(r.current_period_end),
    last_event_created: r.last_event_created === null || r.last_event_created === undefined ? null : Number(r.last_event_created),
    updated_at: iso(r.updated_at)!,
    version: Number(r.version),
  };
}

/** `billing_accounts` (migration 017): a put is an insert (first version) or an update guarded by the version read. */
export class PostgresBillingAccountStore implements BillingAccountStore {
  constructor(private db: SqlDriver) {}

  async get(workspaceId: string): Promise<BillingAccount | null> {
    const rows = await this.db.query<Row>(`select ${COLUMNS} from billing_accounts where workspace_id = $1`, [workspaceId]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async getMany(workspaceIds: readonly string[]): Promise<Map<string, BillingAccount>> {
    const ids = [...new Set(workspaceIds)].filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<Row>(`select ${COLUMNS} from billing_accounts where workspace_id = any($1::uuid[])`, [ids]);
    return new Map(rows.map((r) => [String(r.workspace_id), toAccount(r)]));
  }

  async getByCustomer(customerId: string): Promise<BillingAccount | null> {
    const rows = await this.db.query<Row>(`select ${COLUMNS} from billing_accounts where customer_id = $1 limit 1`, [customerId]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async put(a: BillingAccount, expected: number | null): Promise<boolean> {
    const values = [
      a.workspace_id,
      a.customer_id,
      a.subscription_id,
      a.status,
      a.plan,
      a.current_period_start,
      a.current_period_end,
      a.last_event_created,
      a.updated_at,
      a.version,
    ];
    if (expected === null) {
      try {
        const rows = await this.db.query<Row>(
          `insert into billing_accounts (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           on conflict (workspace_id) do nothing returning workspace_id`,
          values,
        );
        return rows.length > 0;
      } catch (e) {
        // The workspace is gone: nothing is kept for it.
        if (sqlState(e) === FOREIGN_KEY_VIOLATION) return false;
        throw e;
      }
    }
    const rows = await this.db.query<Row>(
      `update billing_accounts set customer_id = $2, subscription_id = $3, status = $4, plan = $5, current_period_start = $6,
         current_period_end = $7, last_event_created = $8, updated_at = $9, version = $10
       where workspace_id = $1 and version = $11 returning workspace_id`,
      [...values, expected],
    );
    return rows.length > 0;
  }
}
