import type { LedgerEntry } from "../../../core/credits/model.ts";

/**
 * A ledger entry as stored. `idem` and `resolves` carry the entry's idempotency key and the hold
 * it resolves, or `#<id>` when it has none: always present and unique per workspace, so plain
 * unique indexes enforce the optional keys (FerretDB v1 has no partial indexes).
 */
export interface CreditEntryDoc extends Omit<LedgerEntry, "id"> {
  _id: string;
  workspace_id: string;
  idem: string;
  resolves: string;
}

export function entryDoc(workspaceId: string, e: LedgerEntry): CreditEntryDoc {
  const { id, ...rest } = e;
  return { _id: id, workspace_id: workspaceId, ...rest, idem: e.idempotency_key ?? `#${id}`, resolves: e.hold_id ?? `#${id}` };
}

export function fromEntryDoc(d: CreditEntryDoc): LedgerEntry {
  return {
    id: d._id,
    seq: d.seq,
    type: d.type,
    amount: d.amount,
    held: d.held,
    balance_after: d.balance_after,
    held_after: d.held_after,
    run_id: d.run_id,
    record_id: d.record_id,
    hold_id: d.hold_id,
    idempotency_key: d.idempotency_key,
    reason: d.reason,
    at: d.at,
  };
}

/** A kept answer: `_id` is the JSON of `[workspace_id, scope, key]`, so its insert is the claim. */
export interface IdempotencyDoc {
  _id: string;
  workspace_id: string;
  scope: string;
  key: string;
  fingerprint: string;
  state: "pending" | "done";
  status: number | null;
  /** the answer as JSON text: bodies may hold keys MongoDB refuses (`$…`, dots) */
  body: string | null;
  created_at: string;
  expires_at: string;
}
