import type { CoreDeps } from "../kernel/deps.ts";
import type { BillingStores } from "../billing/mod.ts";
import type { CreditStores } from "../credits/mod.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { Listed, Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { BillingOffer, Contract, OfferStatus } from "./model.ts";

/** Which offers a list returns; `status: "expired"` is an open one past its `expires_at` (read, never written). */
export interface OfferFilter {
  workspace_id?: string;
  status?: OfferStatus;
}

/**
 * Offers (docs/decisions/034-offers-and-enterprise.md). An offer leaves `open` once, by a
 * compare-and-set: of concurrent transitions of one offer exactly one happens.
 */
export interface OfferStore {
  insert(offer: BillingOffer): Promise<void>;
  /** By id alone (the operator's read); null when none. */
  get(offerId: string): Promise<BillingOffer | null>;
  /** Newest first; `now` decides which open offers read as expired. */
  list(filter: OfferFilter, now: string, page: OffsetPage): Promise<Listed<BillingOffer>>;
  /**
   * `open` → `to` when the offer is open and not expired at `at`; the offer after, or null (not
   * open, already closed, expired, or unknown: nothing changed). Atomic.
   */
  close(offerId: string, to: "accepted" | "cancelled", at: string): Promise<BillingOffer | null>;
  /**
   * Accepted offers whose effects (contract, plan, credits) are not yet settled, accepted at or
   * before `acceptedBefore`, oldest first, at most `limit`. An acceptance (`close` to `accepted`)
   * records its effects pending in the same write (docs/decisions/043-billing-schedules-and-offer-effects.md).
   */
  pendingEffects(acceptedBefore: string, limit: number): Promise<BillingOffer[]>;
  /** Whether the offer's effects are still pending (false: settled, not accepted, or unknown). */
  hasPendingEffects(offerId: string): Promise<boolean>;
  /** Records that the accepted offer's effects are all applied; again, nothing. */
  settleEffects(offerId: string): Promise<void>;
  /**
   * Atomically: the stored-`open` offer (expired or not) becomes `superseded` by `next.id` and
   * `next` is inserted; of concurrent calls on one offer exactly one does. Null: it was not open
   * (or is unknown), nothing written.
   */
  supersede(offerId: string, next: BillingOffer, at: string): Promise<{ previous: BillingOffer; next: BillingOffer } | null>;
}

/**
 * When a contract's next period starts, and with it the next grant of its included credits: the
 * contract is named by its workspace and `started_at` (a replaced contract's schedule is stale).
 */
export interface GrantDue {
  workspace_id: string;
  contract_started_at: string;
  /** The start of the next period whose included credits are to be granted. */
  due_at: string;
}

/** The contract each workspace is held to (one per workspace; the latest put replaces it). */
export interface ContractStore {
  get(workspaceId: string): Promise<Contract | null>;
  /** Several workspaces' contracts at once (one read). */
  getMany(workspaceIds: string[]): Promise<Map<string, Contract>>;
  /** Replaces the workspace's contract; its included credits are next due at `firstDue` (its second period's start). */
  put(contract: Contract, firstDue: string): Promise<void>;
  /** True when there was one (its schedule goes with it). */
  delete(workspaceId: string): Promise<boolean>;
  /** Contracts' grants due at or before `now`, soonest first, at most `limit` (stale ones included: the caller drops them). */
  dueGrants(now: string, limit: number): Promise<GrantDue[]>;
  /** The workspace's grants still scheduled (a crash can leave a stale one beside the current; tests and diagnostics). */
  grantsOf(workspaceId: string): Promise<GrantDue[]>;
  /**
   * Moves `due` to `next` (null: drops it) when it is still scheduled; otherwise nothing. Two
   * callers moving one due write the same thing (the next start is a function of the contract).
   */
  advanceGrant(due: GrantDue, next: string | null): Promise<void>;
}

/** Offers' stores, one bundle per adapter (adapters/<adapter>/offers/). */
export interface OfferStores {
  offers: OfferStore;
  contracts: ContractStore;
}

/** What offers' use cases are given: its stores and those of the modules it reads and writes through (ADR 019). */
export type OfferDeps = CoreDeps<OfferStores & BillingStores & CreditStores & WorkspaceStores> & {
  /** What follows issuing an offer (`mailHooks`: a mail to the workspace's owners, list `billing`); without it, nothing. */
  onOfferIssued?: OfferIssuedHook;
};

/**
 * What follows issuing an offer (`mailHooks`: a mail to the workspace's owners, list `billing`).
 * A hook is another module's code and may read any bundle: it is given the host's whole deps (typed `CoreDeps<unknown>` here; the hook names what it reads, ADR 066).
 */
export type OfferIssuedHook = (deps: CoreDeps<unknown>, workspace: Workspace, offer: BillingOffer) => Promise<void>;
