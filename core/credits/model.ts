import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";

/** The kinds of ledger entries (docs/decisions/021-credit-ledger.md). */
export const LEDGER_ENTRY_TYPES = ["grant", "hold", "capture", "release", "debit"] as const;
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

/**
 * One append-only entry of a workspace's credit ledger. `amount` and `held` are signed changes:
 * balance = Σ amount, held = Σ held, available = balance − held, never below 0. `seq` numbers a
 * workspace's entries 1, 2, 3 … without gaps; `balance_after` and `held_after` are the running
 * totals once this entry applies.
 */
export const LedgerEntry = Type.Object({
  id: Type.String({ format: "uuid" }),
  seq: Type.Integer({ minimum: 1 }),
  type: literalUnion(LEDGER_ENTRY_TYPES),
  amount: Type.Integer({ description: "Change of the balance: + for a grant, − for a debit or capture, 0 for a hold or release." }),
  held: Type.Integer({ description: "Change of the held credits: + for a hold, − for its capture or release." }),
  balance_after: Type.Integer({ minimum: 0 }),
  held_after: Type.Integer({ minimum: 0 }),
  run_id: Nullable(Type.String()),
  record_id: Nullable(Type.String()),
  hold_id: Nullable(Type.String({ description: "The hold a capture or release resolves." })),
  idempotency_key: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  at: Type.String({ format: "date-time" }),
});
export type LedgerEntry = Static<typeof LedgerEntry>;

/** A workspace's credits now. An account with no entries has all three at 0. */
export const CreditAccount = Type.Object({
  balance: Type.Integer({ minimum: 0 }),
  held: Type.Integer({ minimum: 0 }),
  available: Type.Integer({ minimum: 0, description: "balance − held: what may still be held or debited." }),
});
export type CreditAccount = Static<typeof CreditAccount>;

/**
 * The answer kept for an `Idempotency-Key` (one per workspace, scope and key). `pending` while
 * its first request runs; `done` with the answer to replay.
 */
export interface IdempotencyRecord {
  workspace_id: string;
  /** the operation the key was sent to, e.g. `credits.grant` */
  scope: string;
  key: string;
  /** SHA-256 of the operation's request: another request under the same key is refused */
  fingerprint: string;
  state: "pending" | "done";
  status: number | null;
  body: unknown;
  created_at: string;
  /** after this, the key may be used again */
  expires_at: string;
}
