import { changeOf, EMPTY_TOTALS, isRefusal, type LedgerTotals, requiredBy } from "../../../core/credits/ledger-rules.ts";
import type { LedgerEntry } from "../../../core/credits/model.ts";
import type { CreditLedgerStore, LedgerFilter, LedgerOutcome, LedgerRequest } from "../../../core/credits/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import { inTransaction, type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import type { Row } from "../row-values.ts";
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
        return await inTransaction<LedgerOutcome>(this.db, (tx, abort) => this.appendIn(tx, req, abort));
      } catch (e) {
        if (sqlState(e) !== UNIQUE_VIOLATION || attempt >= 3) throw e;
      }
    }
  }

  private async appendIn(tx: SqlDriver, req: LedgerRequest, abort: (v: LedgerOutcome) => never): Promise<LedgerOutcome> {
    const ws = req.workspace_id;
    if (req.idempotency_key) {
      const [prior] = await tx.query<Row>(`select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and idempotency_key = $2`, [
        ws,
        req.idempotency_key,
      ]);
      if (prior) return { ok: true, entry: toEntry(prior), replayed: true };
    }
    let hold: LedgerEntry | null = null;
    if (req.op.type === "resolve") {
      if (!isUuid(req.op.hold_id)) return { ok: false, reason: "hold_not_found" };
      const [resolution] = await tx.query<Row>(`select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = $2`, [
        ws,
        req.op.hold_id,
      ]);
      if (resolution) return { ok: false, reason: "hold_resolved", resolution: toEntry(resolution) };
      hold = await this.get(ws, req.op.hold_id, tx);
    }
    const change = changeOf(req.op, hold);
    if (isRefusal(change)) return { ok: false, ...change };

    const guarded = () =>
      tx.query<Row>(
        `update credit_accounts set balance = balance + $2, held = held + $3, seq = seq + 1
         where workspace_id = $1 and balance + $2 - (held + $3) >= 0 and held + $3 >= 0
         returning balance, held, seq`,
        [ws, change.amount, change.held],
      );
    let [row] = await guarded();
    if (!row && change.hold_id) {
      // Only a resolution that committed meanwhile can have taken the hold out of `held`; this
      // statement sees it (read committed).
      const [resolution] = await tx.query<Row>(`select ${ENTRY_COLUMNS} from credit_entries where workspace_id = $1 and hold_id = $2`, [
        ws,
        change.hold_id,
      ]);
      if (resolution) return abort({ ok: false, reason: "hold_resolved", resolution: toEntry(resolution) });
    }
    if (!row) {
      const [account] = await tx.query<Row>(`select balance, held from credit_accounts where workspace_id = $1`, [ws]);
      if (account) {
        return abort({
          ok: false,
          reason: "insufficient",
          required: requiredBy(change),
          available: Number(account.balance) - Number(account.held),
        });
      }
      // The workspace's first entry opens its account.
      await tx.query(`insert into credit_accounts (workspace_id) values ($1) on conflict do nothing`, [ws]);
      [row] = await guarded();
      if (!row) return abort({ ok: false, reason: "insufficient", required: requiredBy(change), available: 0 });
    }
    const [entry] = await tx.query<Row>(
      `insert into credit_entries (workspace_id, ${ENTRY_COLUMNS})
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       returning ${ENTRY_COLUMNS}`,
      [
        ws,
        req.id,
        row.seq,
        change.type,
        change.amount,
        change.held,
        row.balance,
        row.held,
        req.run_id ?? null,
        req.record_id ?? null,
        change.hold_id,
        req.idempotency_key ?? null,
        req.reason ?? null,
        req.at,
      ],
    );
    return { ok: true, entry: toEntry(entry!), replayed: false };
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
