import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";
import type { BillingOffer, Contract } from "./model.ts";

/**
 * Offers' kinds as they move between stores (ADR 067): offers, then each workspace's contract.
 * An accepted offer carries whether its effects are still pending (the recovery applies them on
 * the copy), a contract when its included credits are next due.
 */
export const OFFER_KINDS = {
  offers: { name: "offers.offers", tenant: true, key: ["id"] },
  contracts: { name: "offers.contracts", tenant: true, key: ["workspace_id"] },
} as const satisfies Record<string, TransferKindSpec>;

export type OfferDoc = BillingOffer & { effects_pending: boolean };
/** `next_grant_at`: the start of the next period whose included credits are due; null: none scheduled. */
export type ContractDoc = Contract & { next_grant_at: string | null };
