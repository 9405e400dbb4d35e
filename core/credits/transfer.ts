import type { TransferDoc } from "../kernel/store-transfer.ts";
import type { IdempotencyRecord, LedgerEntry } from "./model.ts";

/**
 * Credits' transfer kinds (ADR 067, ADR 070), in write order. One list the three adapters'
 * transfer.ts import.
 *
 * - `ledger_entries`: the ledger itself, every entry with its `seq` (a copied ledger is the same
 *   ledger). The account (balance, held, next seq) is derived: it is the running totals of the
 *   newest entry, so a write of entries moves PostgreSQL's `credit_accounts` row to them and the
 *   next grant on the copy takes the next seq. Only `npm run store:copy` writes it.
 * - `imported_entries`: a ledger imported with a workspace archive, kept as history only: never
 *   read by `totals`, `append` or `history`, so it never counts in balance or available. Same
 *   document as an entry, key `seq` as the archive numbered it.
 * - `idempotency`: the answers kept for `Idempotency-Key`s.
 */
export const CREDIT_TRANSFER_KINDS = {
  ledgerEntries: { name: "credits.ledger_entries", tenant: true, key: ["seq"] },
  importedEntries: { name: "credits.imported_entries", tenant: true, key: ["seq"] },
  idempotency: { name: "credits.idempotency", tenant: true, key: ["scope", "key"] },
} as const;

/** An entry (own or imported) as it moves: the entry and its workspace. */
export type LedgerEntryTransferDoc = LedgerEntry & { workspace_id: string };

/** The entry's document, field by field. */
export function ledgerEntryDoc(workspaceId: string, e: LedgerEntry): TransferDoc {
  const doc: LedgerEntryTransferDoc = {
    workspace_id: workspaceId,
    id: e.id,
    seq: e.seq,
    type: e.type,
    amount: e.amount,
    held: e.held,
    balance_after: e.balance_after,
    held_after: e.held_after,
    run_id: e.run_id,
    record_id: e.record_id,
    hold_id: e.hold_id,
    idempotency_key: e.idempotency_key,
    reason: e.reason,
    at: e.at,
  };
  return doc as unknown as TransferDoc;
}

/** The entry a document holds (and its workspace). */
export function ledgerEntryFromDoc(doc: TransferDoc): { workspaceId: string; entry: LedgerEntry } {
  const d = doc as unknown as LedgerEntryTransferDoc;
  return {
    workspaceId: d.workspace_id,
    entry: {
      id: d.id,
      seq: d.seq,
      type: d.type,
      amount: d.amount,
      held: d.held,
      balance_after: d.balance_after,
      held_after: d.held_after,
      run_id: d.run_id ?? null,
      record_id: d.record_id ?? null,
      hold_id: d.hold_id ?? null,
      idempotency_key: d.idempotency_key ?? null,
      reason: d.reason ?? null,
      at: d.at,
    },
  };
}

/** A kept answer's document, field by field (`body` is JSON: what the request answered). */
export function idempotencyDoc(r: IdempotencyRecord): TransferDoc {
  return {
    workspace_id: r.workspace_id,
    scope: r.scope,
    key: r.key,
    fingerprint: r.fingerprint,
    state: r.state,
    status: r.status,
    body: (r.body ?? null) as TransferDoc[string],
    created_at: r.created_at,
    expires_at: r.expires_at,
  };
}

export function idempotencyFromDoc(doc: TransferDoc): IdempotencyRecord {
  const d = doc as unknown as IdempotencyRecord;
  return {
    workspace_id: d.workspace_id,
    scope: d.scope,
    key: d.key,
    fingerprint: d.fingerprint,
    state: d.state,
    status: d.status ?? null,
    body: d.body ?? null,
    created_at: d.created_at,
    expires_at: d.expires_at,
  };
}
