import { changeOf, EMPTY_TOTALS, isRefusal, type LedgerTotals, requiredBy } from "../../../core/credits/ledger-rules.ts";
import type { LedgerEntry } from "../../../core/credits/model.ts";
import type { CreditLedgerStore, LedgerFilter, LedgerOutcome, LedgerRequest } from "../../../core/credits/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import { type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { availableOf, openAccount } from "./account-sql.ts";
import { ENTRY_COLUMNS, toEntry } from "./rows.ts";

/**
 * The account row is the lock: each write is one guarded update of the running totals (refused by
 * its `where` when it would leave less than 0 available) and the entry insert, in one transaction.
 * Nothing is decided on a value read earlier. A unique key refusing the insert (an idempotency key
 * or a hold resolved concurrently) rolls the write back; the retry then finds the winner's entry.
 */
export class PostgresCreditLedgerStore implements CreditLedgerStore {
  constructor(private readonly db: SqlDriver) {}

  async append(req: LedgerRequest): Promise<LedgerOutcome> {
    for (let attempt = 0;; attempt++) {
      try {
        return await this.appendOnce(req);
      } catch (e) {
        if (sqlState(e) !== UNIQUE_VIOLATION || attempt >= 3) throw e;
      }
    }
  }

  /**
   * One statement does the write: the guarded update of the account and the entry's insert, in a
   * CTE, so the account row is locked for that statement alone (no transaction round trips while
   * a hot account's writers queue on it). A unique key refusing the insert undoes the update too.
   */
  private async appendOnce(req: LedgerRequest): Promise<LedgerOutcome> {
    const ws = req.workspace_id;
    if (req.idempotency_key) {
      const [prior] = await this.db.query<Row>(
        `select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and idempotency_key = $2`,
        [ws, req.idempotency_key],
      );
      if (prior) return { ok: true, entry: toEntry(prior), replayed: true };
    }
    let hold: LedgerEntry | null = null;
    if (req.op.type === "resolve") {
      const holdId = req.op.hold_id;
      if (!isUuid(holdId)) return { ok: false, reason: "hold_not_found" };
      // The hold and whether it is resolved, in one read: two lookups by unique keys (an `or` of
      // the two made plans that scanned the account's entries).
      const rows = await this.db.query<Row>(
        `select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and id = $2
         union all
         select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = $2`,
        [ws, holdId],
      );
      const entries = rows.map(toEntry);
      const resolution = entries.find((e) => e.hold_id === holdId);
      if (resolution) return { ok: false, reason: "hold_resolved", resolution };
      hold = entries.find((e) => e.id === holdId) ?? null;
    }
    const change = changeOf(req.op, hold);
    if (isRefusal(change)) return { ok: false, ...change };

    const write = () =>
      this.db.query<Row>(
        `with account as (
           update credit_accounts set balance = balance + $2, held = held + $3, seq = seq + 1
           where workspace_id = $1 and balance + $2 - (held + $3) >= 0 and held + $3 >= 0
           returning balance, held, seq
         )
         insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
         select $1, $4, account.seq, $5, $2, $3, account.balance, account.held, $6, $7, $8, $9, $10, $11 from account
         returning ${ENTRY_COLUMNS}`,
        [
          ws,
          change.amount,
          change.held,
          req.id,
          change.type,
          req.run_id ?? null,
          req.record_id ?? null,
          change.hold_id,
          req.idempotency_key ?? null,
          req.reason ?? null,
          req.at,
        ],
      );
    let [entry] = await write();
    if (entry) return { ok: true, entry: toEntry(entry), replayed: false };

    // Refused by the guard, or the workspace has no account yet.
    if (change.hold_id) {
      // Only a resolution that committed meanwhile can have taken the hold out of `held`.
      const resolution = await this.resolutionOf(ws, change.hold_id);
      if (resolution) return { ok: false, reason: "hold_resolved", resolution };
    }
    // Opening the account (a no-op when it is open) and writing again tells the two apart: reading
    // it instead would take a concurrent first write's new account for a refusal of this one.
    await openAccount(this.db, ws);
    [entry] = await write();
    if (entry) return { ok: true, entry: toEntry(entry), replayed: false };
    return { ok: false, reason: "insufficient", required: requiredBy(change), available: (await availableOf(this.db, ws)) ?? 0 };
  }

  private async resolutionOf(workspaceId: string, holdId: string): Promise<LedgerEntry | null> {
    const [row] = await this.db.query<Row>(`select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = $2`, [
      workspaceId,
      holdId,
    ]);
    return row ? toEntry(row) : null;
  }

  async totals(workspaceId: string): Promise<LedgerTotals> {
    if (!isUuid(workspaceId)) return { ...EMPTY_TOTALS };
    const [row] = await this.db.query<Row>(`select balance, held, seq from credit_accounts where workspace_id = $1`, [workspaceId]);
    return row ? { seq: Number(row.seq), balance: Number(row.balance), held: Number(row.held) } : { ...EMPTY_TOTALS };
  }

  async history(workspaceId: string, filter: LedgerFilter, page: { limit: number; beforeSeq?: number }): Promise<LedgerEntry[]> {
    if (!isUuid(workspaceId)) return [];
    const params: unknown[] = [workspaceId];
    const where = ["workspace_id = $1"];
    if (filter.type) where.push(`type = $${params.push(filter.type)}`);
    if (filter.run_id) where.push(`run_id = $${params.push(filter.run_id)}`);
    if (page.beforeSeq !== undefined) where.push(`seq < $${params.push(page.beforeSeq)}`);
    const rows = await this.db.query<Row>(
      `select ${ENTRY_COLUMNS} from credit_entries where ${where.join(" and ")} order by seq desc limit $${params.push(page.limit)}`,
      params,
    );
    return rows.map(toEntry);
  }

  async get(workspaceId: string, id: string, db: SqlDriver = this.db): Promise<LedgerEntry | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const [row] = await db.query<Row>(`select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? toEntry(row) : null;
  }
}
