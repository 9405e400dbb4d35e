import type { Collection, Db } from "mongodb";
import type { BillingOffer, Contract } from "../../../core/offers/model.ts";

/**
 * An offer: its fields with `_id` = id. `pending_of` marks a reissue in flight: the old offer's
 * id, until that offer's closure names this one (readers ignore it before).
 */
export type OfferDoc = Omit<BillingOffer, "id"> & { _id: string; pending_of?: string };

/**
 * That an offer left `open`: `_id` = the offer's id, so of concurrent transitions exactly one
 * inserts (ADR 005). The offer document is written after it; readers trust the closure.
 */
export interface OfferClosureDoc {
  _id: string;
  workspace_id: string;
  status: "accepted" | "cancelled" | "superseded";
  at: string;
  superseded_by: string | null;
  /** Set on an acceptance (in its insert) until the offer's effects are applied, then unset. */
  effects_pending?: true;
}

/**
 * A contract's next included grant: `_id` `<workspace_id>|<contract_started_at>|<due_at>`.
 * Written by insert (a repeat is a duplicate key, harmless) and removed by delete (atomic on
 * FerretDB, ADR 005); never updated, so no write can resurrect a replaced contract.
 */
export interface GrantDueDoc {
  _id: string;
  workspace_id: string;
  contract_started_at: string;
  due_at: string;
}

/** A workspace's contract: `_id` = workspace id. */
export type ContractDoc = Contract & { _id: string };

/** Offers' collections of one database (their indexes: indexes.ts); their names are those billing gave them. */
export interface OfferCollections {
  offers: Collection<OfferDoc>;
  offerClosures: Collection<OfferClosureDoc>;
  contracts: Collection<ContractDoc>;
  grantDues: Collection<GrantDueDoc>;
}

export const OFFER_COLLECTION_NAMES = {
  offers: "billing_offers",
  offerClosures: "billing_offer_closures",
  contracts: "billing_contracts",
  grantDues: "billing_grant_dues",
} as const;

export function offerCollections(db: Db): OfferCollections {
  return {
    offers: db.collection<OfferDoc>(OFFER_COLLECTION_NAMES.offers),
    offerClosures: db.collection<OfferClosureDoc>(OFFER_COLLECTION_NAMES.offerClosures),
    contracts: db.collection<ContractDoc>(OFFER_COLLECTION_NAMES.contracts),
    grantDues: db.collection<GrantDueDoc>(OFFER_COLLECTION_NAMES.grantDues),
  };
}
