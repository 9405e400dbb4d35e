import type { LedgerEntry } from "../credits/mod.ts";
import type { BillingDeps } from "./ports.ts";
import { includedCreditsKey, type Period } from "./period.ts";

/** Ledger pages read at a time when summing a period. */
const PAGE = 200;

/** What the ledger says of a period: included credits granted for it and credits charged in it. */
export interface PeriodCredits {
  included: number;
  used: number;
}

/** Whether a ledger key is one of the period's included grants (the first, or a later top-up). */
export const isIncludedKey = (key: string | null, period: Period): boolean => {
  const base = `grant:${includedCreditsKey(period)}`;
  return key === base || (key?.startsWith(`${base}:`) ?? false);
};

/**
 * Sums the period's entries, newest first, stopping at the first entry before the period: the
 * included grants of the period (by their keys) and what was charged (captures and debits).
 * Reads the period's entries once; a per-period aggregate is the next step if they grow large.
 */
export async function periodCredits(deps: BillingDeps, workspaceId: string, period: Period): Promise<PeriodCredits> {
  let included = 0;
  let used = 0;
  let beforeSeq: number | undefined;
  for (;;) {
    const rows: LedgerEntry[] = await deps.stores.creditLedger.history(workspaceId, {}, { limit: PAGE, beforeSeq });
    for (const e of rows) {
      if (e.at < period.start) return { included, used };
      if (e.at >= period.end) continue;
      if (e.type === "grant" && isIncludedKey(e.idempotency_key, period)) included += e.amount;
      if (e.type === "capture" || e.type === "debit") used += -e.amount;
    }
    if (rows.length < PAGE) return { included, used };
    beforeSeq = rows.at(-1)!.seq;
  }
}
