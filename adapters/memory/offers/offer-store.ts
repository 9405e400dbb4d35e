import type { BillingOffer, Contract } from "../../../core/offers/model.ts";
import type { ContractStore, GrantDue, OfferFilter, OfferStore } from "../../../core/offers/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { byCreated, copy, page } from "../rows.ts";
import type { OfferTables } from "./tables.ts";

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
  constructor(private t: OfferTables) {}

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
    if (to === "accepted") this.t.offerEffectsPending.add(offerId);
    return copy(next);
  }

  async pendingEffects(acceptedBefore: string, limit: number): Promise<BillingOffer[]> {
    return [...this.t.offerEffectsPending]
      .map((id) => this.t.offers.get(id))
      .filter((o): o is BillingOffer => o !== undefined && o.accepted_at !== null && o.accepted_at <= acceptedBefore)
      .sort((a, b) => (a.accepted_at! < b.accepted_at! ? -1 : a.accepted_at! > b.accepted_at! ? 1 : 0))
      .slice(0, limit)
      .map(copy);
  }

  async hasPendingEffects(offerId: string): Promise<boolean> {
    return this.t.offerEffectsPending.has(offerId);
  }

  async settleEffects(offerId: string): Promise<void> {
    this.t.offerEffectsPending.delete(offerId);
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
  constructor(private t: OfferTables) {}

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

  async put(contract: Contract, firstDue: string): Promise<void> {
    this.t.contracts.set(contract.workspace_id, copy(contract));
    this.t.grantDues.set(contract.workspace_id, {
      workspace_id: contract.workspace_id,
      contract_started_at: contract.started_at,
      due_at: firstDue,
    });
  }

  async delete(workspaceId: string): Promise<boolean> {
    this.t.grantDues.delete(workspaceId);
    return this.t.contracts.delete(workspaceId);
  }

  async dueGrants(now: string, limit: number): Promise<GrantDue[]> {
    return [...this.t.grantDues.values()]
      .filter((d) => d.due_at <= now)
      .sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : 0))
      .slice(0, limit)
      .map(copy);
  }

  async grantsOf(workspaceId: string): Promise<GrantDue[]> {
    const d = this.t.grantDues.get(workspaceId);
    return d ? [copy(d)] : [];
  }

  async advanceGrant(due: GrantDue, next: string | null): Promise<void> {
    const d = this.t.grantDues.get(due.workspace_id);
    if (!d || d.contract_started_at !== due.contract_started_at || d.due_at !== due.due_at) return;
    if (next === null) this.t.grantDues.delete(due.workspace_id);
    else this.t.grantDues.set(due.workspace_id, { ...d, due_at: next });
  }
}
