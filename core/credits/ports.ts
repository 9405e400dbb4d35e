import type { CoreDeps } from "../kernel/deps.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { LedgerOp, LedgerRefusal, LedgerTotals } from "./ledger-rules.ts";
import type { IdempotencyRecord, LedgerEntry, LedgerEntryType } from "./model.ts";

/**
 * Store ports of credits. Absence is `null` or `[]`; expected refusals are returned values.
 * Each method is atomic on its own, under any concurrency (docs/decisions/021-credit-ledger.md).
 */

/** One write asked of the ledger. */
export interface LedgerRequest {
  workspace_id: string;
  /** the new entry's id (UUIDv7) */
  id: string;
  at: string;
  op: LedgerOp;
  run_id?: string | null;
  record_id?: string | null;
  reason?: string | null;
  /**
   * Unique per workspace: a request under a key already written answers that entry
   * (`replayed: true`) and writes nothing, whatever it asked.
   */
  idempotency_key?: string | null;
}

export type LedgerOutcome =
  | { ok: true; entry: LedgerEntry; replayed: boolean }
  | ({ ok: false } & LedgerRefusal)
  /** The hold was resolved already (by `resolution`): a hold resolves once. */
  | { ok: false; reason: "hold_resolved"; resolution: LedgerEntry };

export interface LedgerFilter {
  type?: LedgerEntryType;
  run_id?: string;
}

export interface CreditLedgerStore {
  /**
   * Appends the entry `req.op` plans on the account's latest totals (ledger-rules.ts), or
   * refuses. The available balance never goes below 0, whatever runs concurrently.
   */
  append(req: LedgerRequest): Promise<LedgerOutcome>;
  /** The account's running totals (zeros for a workspace with no entries). */
  totals(workspaceId: string): Promise<LedgerTotals>;
  /** Entries newest first (by `seq`), those with `seq < beforeSeq` when given. */
  history(workspaceId: string, filter: LedgerFilter, page: { limit: number; beforeSeq?: number }): Promise<LedgerEntry[]>;
  /** One entry by id. */
  get(workspaceId: string, id: string): Promise<LedgerEntry | null>;
}

export type IdempotencyBegin =
  /** The caller owns the key now: it runs the operation, then `finish`es or `abandon`s. */
  | { kind: "started" }
  | { kind: "done"; record: IdempotencyRecord }
  /** Another request under this key is still running. */
  | { kind: "pending" }
  /** The key was used for another request (another fingerprint). */
  | { kind: "mismatch" };

/** The answers kept for `Idempotency-Key`s, reusable by any money-moving operation. */
export interface IdempotencyStore {
  /**
   * Claims `(workspace_id, scope, key)` for `record` (state `pending`). A record past its
   * `expires_at`, or a pending one created before `staleBefore` (its request died), is replaced.
   * Of concurrent claims of one key, exactly one is `started`.
   */
  begin(record: IdempotencyRecord, staleBefore: string): Promise<IdempotencyBegin>;
  /** Keeps the answer of a started key (state `done`). */
  finish(workspaceId: string, scope: string, key: string, answer: { status: number; body: unknown }): Promise<void>;
  /** Drops a started key whose operation failed, so the request may be sent again. */
  abandon(workspaceId: string, scope: string, key: string, fingerprint: string): Promise<void>;
}

/** Credits' stores, one bundle per adapter (adapters/<adapter>/credits/). */
export interface CreditStores {
  creditLedger: CreditLedgerStore;
  idempotency: IdempotencyStore;
}

/** What credits' use cases are given (ADR 019). */
export type CreditDeps = CoreDeps<CreditStores & WorkspaceStores>;
