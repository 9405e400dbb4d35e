import type { LedgerEntry } from "../../../core/credits/model.ts";
import { iso } from "../driver.ts";
import { type Row, strOrNull } from "../row-values.ts";

export const ENTRY_COLUMNS =
  "id, seq, type, amount, held, balance_after, held_after, run_id, record_id, hold_id, idempotency_key, reason, at";

/** bigint columns come back as strings (postgres.js) or numbers (PGlite); every ledger value is a safe integer. */
const int = (v: unknown): number => Number(v);

export function toEntry(r: Row): LedgerEntry {
  return {
    id: r.id as string,
    seq: int(r.seq),
    type: r.type as LedgerEntry["type"],
    amount: int(r.amount),
    held: int(r.held),
    balance_after: int(r.balance_after),
    held_after: int(r.held_after),
    run_id: strOrNull(r.run_id),
    record_id: strOrNull(r.record_id),
    hold_id: strOrNull(r.hold_id),
    idempotency_key: strOrNull(r.idempotency_key),
    reason: strOrNull(r.reason),
    at: iso(r.at),
  };
}
