import type { CoreDeps } from "../kernel/deps.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { insufficientCredits } from "./errors.ts";
import type { LedgerEntry } from "./model.ts";
import type { CreditStores } from "./ports.ts";

/**
 * How a seller moves money: everything radar's runs and contacts' enrichment sell is held first
 * and settled once (ADR 021). One place for the hold and its resolution, so every one of them
 * refuses and charges alike.
 */

export interface HoldOptions {
  run_id?: string | null;
  reason: string;
  /** One hold per key, whatever retries and races (a run's start). */
  idempotency_key?: string | null;
}

/** Holds `amount` credits and returns the hold's id: a 402 with the shortfall when they are not available. */
export async function holdCredits(deps: CoreDeps<CreditStores>, workspaceId: string, amount: number, o: HoldOptions): Promise<string> {
  const now = deps.clock.now();
  const held = await deps.stores.creditLedger.append({
    workspace_id: workspaceId,
    id: uuidv7(now.getTime()),
    at: now.toISOString(),
    op: { type: "hold", amount },
    run_id: o.run_id ?? null,
    reason: o.reason,
    idempotency_key: o.idempotency_key ?? null,
  });
  if (held.ok) return held.entry.id;
  if (held.reason === "insufficient") throw insufficientCredits(held.required, held.available);
  throw new Error(`Cannot hold credits: the ledger refused (${held.reason})`);
}

/**
 * Resolves a hold once: `capture` is charged, the rest released. Resolved before (a retry, a
 * concurrent settle), it answers that resolution instead of charging again.
 */
export async function settleHold(
  deps: CoreDeps<CreditStores>,
  workspaceId: string,
  holdId: string,
  capture: number,
  o: HoldOptions,
): Promise<LedgerEntry> {
  const now = deps.clock.now();
  const resolved = await deps.stores.creditLedger.append({
    workspace_id: workspaceId,
    id: uuidv7(now.getTime()),
    at: now.toISOString(),
    op: { type: "resolve", hold_id: holdId, capture },
    run_id: o.run_id ?? null,
    reason: o.reason,
  });
  if (resolved.ok) return resolved.entry;
  if (resolved.reason === "hold_resolved") return resolved.resolution;
  throw new Error(`Cannot settle hold ${holdId}: the ledger refused (${resolved.reason})`);
}
