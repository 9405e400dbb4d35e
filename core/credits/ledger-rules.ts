import type { LedgerEntry, LedgerEntryType } from "./model.ts";

/**
 * The ledger's arithmetic, pure: what an operation writes given the account's running totals.
 * Every adapter applies it (PostgreSQL states the same guard in SQL), and the property test holds
 * it to an oracle.
 */

/** The running totals after a workspace's latest entry (`seq` 0: no entry yet). */
export interface LedgerTotals {
  seq: number;
  balance: number;
  held: number;
}

export const EMPTY_TOTALS: LedgerTotals = { seq: 0, balance: 0, held: 0 };

/** What a caller asks the ledger to do. Amounts are positive integers; a capture may be 0. */
export type LedgerOp =
  | { type: "grant"; amount: number }
  | { type: "debit"; amount: number }
  | { type: "hold"; amount: number }
  /** Resolves a hold once: `capture` (0 … the hold) is charged, the rest released. */
  | { type: "resolve"; hold_id: string; capture: number };

/** The change an operation makes, before it is numbered. */
export interface LedgerChange {
  type: LedgerEntryType;
  amount: number;
  held: number;
  hold_id: string | null;
}

export type LedgerRefusal =
  | { reason: "insufficient"; required: number; available: number }
  | { reason: "hold_not_found" }
  | { reason: "capture_exceeds_hold"; held: number };

export const MAX_LEDGER_AMOUNT = 1_000_000_000;

function checkAmount(n: number, min: number): void {
  if (!Number.isSafeInteger(n) || n < min || n > MAX_LEDGER_AMOUNT) {
    throw new RangeError(`Invalid ledger amount: expected an integer from ${min} to ${MAX_LEDGER_AMOUNT}, got ${n}`);
  }
}

export const available = (t: LedgerTotals): number => t.balance - t.held;

/**
 * The change `op` makes, whatever the totals, or why it cannot be made. `hold` is the hold entry
 * a resolve names (null when the workspace has none of that id); that it is not yet resolved is
 * the store's check (a unique key).
 */
export function changeOf(op: LedgerOp, hold: LedgerEntry | null = null): LedgerChange | LedgerRefusal {
  switch (op.type) {
    case "grant":
      checkAmount(op.amount, 1);
      return { type: "grant", amount: op.amount, held: 0, hold_id: null };
    case "debit":
      checkAmount(op.amount, 1);
      return { type: "debit", amount: -op.amount, held: 0, hold_id: null };
    case "hold":
      checkAmount(op.amount, 1);
      return { type: "hold", amount: 0, held: op.amount, hold_id: null };
    case "resolve": {
      checkAmount(op.capture, 0);
      if (!hold || hold.type !== "hold") return { reason: "hold_not_found" };
      if (op.capture > hold.held) return { reason: "capture_exceeds_hold", held: hold.held };
      // One entry resolves the whole hold: the capture leaves the balance, the hold leaves `held`.
      return {
        type: op.capture > 0 ? "capture" : "release",
        amount: op.capture === 0 ? 0 : -op.capture,
        held: -hold.held,
        hold_id: op.hold_id,
      };
    }
  }
}

/** What a change needs available: a debit its amount, a hold what it holds; grants and resolutions nothing. */
export const requiredBy = (c: LedgerChange): number => Math.max(0, c.held - c.amount);

/**
 * The change `op` makes on `totals`, or why it is refused: available = balance − held stays ≥ 0
 * (PostgreSQL states the same guard in its update).
 */
export function planChange(totals: LedgerTotals, op: LedgerOp, hold: LedgerEntry | null = null): LedgerChange | LedgerRefusal {
  const change = changeOf(op, hold);
  if (isRefusal(change)) return change;
  const after = applyChange(totals, change);
  if (after.balance - after.held < 0 || after.held < 0) {
    return { reason: "insufficient", required: requiredBy(change), available: available(totals) };
  }
  return change;
}

export function isRefusal(x: LedgerChange | LedgerRefusal): x is LedgerRefusal {
  return "reason" in x;
}

/** The totals once `change` applies. */
export function applyChange(totals: LedgerTotals, change: LedgerChange): LedgerTotals {
  return { seq: totals.seq + 1, balance: totals.balance + change.amount, held: totals.held + change.held };
}

/** The totals a ledger entry states (what the next entry builds on). */
export const totalsOf = (e: LedgerEntry): LedgerTotals => ({ seq: e.seq, balance: e.balance_after, held: e.held_after });
