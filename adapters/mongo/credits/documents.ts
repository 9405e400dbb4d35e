import type { LedgerEntry } from "../../../core/credits/model.ts";

/**
 * A ledger entry as stored. `_id` is `<workspace_id>:<seq>`: inserting it is taking the account's
 * next seq, and whether entry n + 1 exists is a lookup by `_id` (which FerretDB serves without a
 * scan). `idem` and `resolves` carry the entry's idempotency key and the hold
 * it resolves, or `#<id>` when it has none: always present and unique per workspace, so plain
 * unique indexes enforce the optional keys (FerretDB v1 has no partial indexes).
 */
export interface CreditEntryDoc extends LedgerEntry {
  _id: string;
  workspace_id: string;
  idem: string;
  resolves: string;
}

export const entryKey = (workspaceId: string, seq: number) => `${workspaceId}:${seq}`;

export function entryDoc(workspaceId: string, e: LedgerEntry): CreditEntryDoc {
  return {
    _id: entryKey(workspaceId, e.seq),
    workspace_id: workspaceId,
    ...e,
    idem: e.idempotency_key ?? `#${e.id}`,
    resolves: e.hold_id ?? `#${e.id}`,
  };
}

export function fromEntryDoc(d: CreditEntryDoc): LedgerEntry {
  return {
    id: d.id,
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
