import type { IdempotencyRecord, LedgerEntry } from "../../../core/credits/model.ts";

/** The in-memory tables of credits (the adapter's composition shares one object of every module's tables). */
export class CreditTables {
  /** workspace id → its entries in `seq` order (entry n at index n − 1) */
  ledgers = new Map<string, LedgerEntry[]>();
  /** workspace id → the ledger history its archive imports brought, in `seq` order: never counted (ADR 070) */
  importedLedgers = new Map<string, LedgerEntry[]>();
  /** `${workspace_id}:${scope}:${key}` → the kept answer */
  idempotency = new Map<string, IdempotencyRecord & { workspace_id: string }>();
}
