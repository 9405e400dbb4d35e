import type { BillingOffer, Contract } from "../../../core/billing/offer-model.ts";
import type { ContractStore, OfferFilter, OfferStore } from "../../../core/billing/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { byCreated, copy, page } from "../rows.ts";
import type { BillingTables } from "./tables.ts";

/** Whether a stored offer reads as `status` at `now` (`expired`: open and past its expiry). */
export function offerMatches(o: BillingOffer, filter: OfferFilter, now: string): boolean {
  if (filter.workspace_id !== undefined && o.workspace_id !== filter.workspace_id) return false;
  switch (filter.status) {
    case undefined:
      return true;
    case "open":
      return o.status === "open" && o.expires_at > now;
    case "expired":
      return o.status === "open" && o.expires_at <= now;
    default:
      return o.status === filter.status;
  }
}

/** Offers in a map; every method runs in one turn of the event loop, so a transition is a compare-and-set. */
export class MemoryOfferStore implements OfferStore {
  constructor(private t: BillingTables) {}

  async insert(offer: BillingOffer): Promise<void> {
    this.t.offers.set(offer.id, copy(offer));
  }

  async get(offerId: string): Promise<BillingOffer | null> {
    const o = this.t.offers.get(offerId);
    return o ? copy(o) : null;
  }

  async list(filter: OfferFilter, now: string, p: OffsetPage): Promise<Listed<BillingOffer>> {
    const rows = [...this.t.offers.values()].filter((o) => offerMatches(o, filter, now)).sort((a, b) => byCreated(b, a));
    return page(rows, p.offset, p.limit);
  }

  async close(offerId: string, to: "accepted" | "cancelled", at: string): Promise<BillingOffer | null> {
    const o = this.t.offers.get(offerId);
    if (!o || o.status !== "open" || o.expires_at <= at) return null;
    const next: BillingOffer = { ...o, status: to, updated_at: at, ...(to === "accepted" ? { accepted_at: at } : { cancelled_at: at }) };
    this.t.offers.set(offerId, next);
    return copy(next);
  }

  async supersede(offerId: string, next: BillingOffer, at: string): Promise<{ previous: BillingOffer; next: BillingOffer } | null> {
    const o = this.t.offers.get(offerId);
    if (!o || o.status !== "open") return null;
    const previous: BillingOffer = { ...o, status: "superseded", superseded_by: next.id, superseded_at: at, updated_at: at };
    this.t.offers.set(offerId, previous);
    this.t.offers.set(next.id, copy(next));
    return { previous: copy(previous), next: copy(next) };
  }
}

export class MemoryContractStore implements ContractStore {
  constructor(private t: BillingTables) {}

  async get(workspaceId: string): Promise<Contract | null> {
    const c = this.t.contracts.get(workspaceId);
    return c ? copy(c) : null;
  }

  async getMany(workspaceIds: string[]): Promise<Map<string, Contract>> {
    const out = new Map<string, Contract>();
    for (const id of workspaceIds) {
      const c = this.t.contracts.get(id);
      if (c) out.set(id, copy(c));
    }
    return out;
  }

  async put(contract: Contract): Promise<void> {
    this.t.contracts.set(contract.workspace_id, copy(contract));
  }

  async delete(workspaceId: string): Promise<boolean> {
    return this.t.contracts.delete(workspaceId);
  }
}
