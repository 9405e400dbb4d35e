import type { CoreDeps } from "../deps.ts";
import type { CreditStores } from "../credits/mod.ts";
import type { CapacityKind } from "../kernel/capacity.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { Listed, Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { BillingAccountStore } from "./account.ts";
import type { BillingOffer, Contract, OfferStatus } from "./offer-model.ts";
import type { BillingInterval, Usage } from "./plans.ts";

/** The answer of a claim: taken, or refused with what the workspace holds now. */
export type ClaimOutcome = { ok: true } | { ok: false; used: number };

/**
 * Exact counts of what each workspace holds of the limited kinds (members of every role, topics
 * and collections archived included, records of all collections), kept as a counter per
 * workspace and kind (docs/decisions/031-plan-limits.md). A counter starts, the first time it is
 * touched, from an exact count of the stored items; after that every create claims and every
 * delete releases.
 */
export interface PlanUsageStore {
  /** The workspace's counts of every kind. */
  usage(workspaceId: string): Promise<Usage>;
  /** The counts of several workspaces at once (the operator's list: one read, not one per workspace). */
  usageOf(workspaceIds: string[]): Promise<Map<string, Usage>>;
  /**
   * Takes `n` units of `kind` when `used + n ≤ limit` (always when `limit` is null), atomically:
   * of concurrent claims at `limit − 1` exactly one is taken. Refused, nothing is taken.
   */
  claim(workspaceId: string, kind: CapacityKind, n: number, limit: number | null): Promise<ClaimOutcome>;
  /** Gives back `n` units of `kind` (never below 0). */
  release(workspaceId: string, kind: CapacityKind, n: number): Promise<void>;
}

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

/** Billing's stores, one bundle per adapter (adapters/<adapter>/billing/). */
export interface BillingStores {
  planUsage: PlanUsageStore;
  billingAccounts: BillingAccountStore;
  offers: OfferStore;
  contracts: ContractStore;
}

/**
 * What follows issuing an offer (`mailHooks`: a mail to the workspace's owners, list `billing`).
 * Takes the host's whole deps (ADR 019): mail reads its own stores.
 */
export type OfferIssuedHook = (deps: CoreDeps, workspace: Workspace, offer: BillingOffer) => Promise<void>;

/** A Checkout session's line: a subscription to a plan, or a number of credits bought once. */
export type CheckoutPurchase =
  | { kind: "subscription"; plan: "team" | "business"; interval: BillingInterval }
  | { kind: "credits"; credits: number };

export interface CheckoutRequest {
  workspace_id: string;
  customer_id: string;
  purchase: CheckoutPurchase;
  /** The unit price in euro cents, from the catalogue: the plan per interval, or one credit. */
  unit_amount_cents: number;
  /** 1 for a subscription; the number of credits bought. */
  quantity: number;
  /** The line's name as the payer sees it. */
  product_name: string;
  success_url: string;
  cancel_url: string;
  /** Sent to the provider so a retried call creates one session. */
  idempotency_key: string | null;
}

export interface CheckoutSession {
  id: string;
  url: string;
  /** ISO 8601 UTC. */
  expires_at: string;
}

/** What a subscription at the provider says of itself (read by the webhook at checkout). */
export interface ProviderSubscription {
  id: string;
  status: string;
  current_period_start: string | null;
  current_period_end: string | null;
}

/**
 * The payment provider (Stripe; adapters/stripe/): its customers, Checkout sessions with inline
 * prices from the catalogue, and the self-service portal (docs/decisions/033-billing-provider-and-webhook.md).
 * Absent (self-hosted, nothing charged), checkout and portal answer 503 `BILLING_NOT_CONFIGURED`
 * and owners switch plans freely; present, an owner's plain plan switch is refused.
 */
export interface BillingProvider {
  readonly name: string;
  /** Creates the workspace's customer (`idempotency_key` makes a retried call create one). */
  createCustomer(input: { workspace_id: string; name: string; email: string | null; idempotency_key: string }): Promise<{ id: string }>;
  createCheckoutSession(input: CheckoutRequest): Promise<CheckoutSession>;
  createPortalSession(input: { customer_id: string; return_url: string | null }): Promise<{ url: string }>;
  /** The subscription's current state; null when the provider does not know it. */
  getSubscription(id: string): Promise<ProviderSubscription | null>;
}

/** What Billing's use cases are given: its own stores and those of other modules it reads (ADR 019). */
export type BillingDeps = CoreDeps<BillingStores & CreditStores & WorkspaceStores>;
