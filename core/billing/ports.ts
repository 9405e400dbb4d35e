import type { CoreDeps } from "../kernel/deps.ts";
import type { CreditStores } from "../credits/mod.ts";
import type { CapacityKind } from "../kernel/capacity.ts";
import type { Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { BillingAccountStore } from "./account.ts";
import type { BillingInterval, PlanLimits, Usage } from "./plans.ts";

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

/**
 * The contract a workspace is held to, as billing reads it: an enterprise contract's limits and the
 * start of its monthly periods. Contracts are offers' (core/offers/, `ContractStore`); billing names
 * only what it reads, so it imports nothing of offers (ADR 061), and offers' store fits this port.
 */
export interface ContractTerms {
  limits: Partial<PlanLimits> | null;
  started_at: string;
}

/** Reads the contract of a workspace (offers' `ContractStore` is one). */
export interface ContractTermsReader {
  get(workspaceId: string): Promise<ContractTerms | null>;
}

/** Billing's stores, one bundle per adapter (adapters/<adapter>/billing/). */
export interface BillingStores {
  planUsage: PlanUsageStore;
  billingAccounts: BillingAccountStore;
}

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

/**
 * What follows a failed payment (`mailHooks`: the payment-failed notice to every owner, list
 * `billing`, keyed by the provider's event). Billing declares the port so it never imports mail.
 */
export type PaymentFailedHook = (deps: CoreDeps<unknown>, workspace: Workspace, eventId: string) => Promise<void>;

/**
 * What Billing's use cases are given: its own stores, those of other modules it reads (ADR 019),
 * and the contracts' terms (offers' store, read through billing's own port).
 */
export type BillingDeps = CoreDeps<BillingStores & { contracts: ContractTermsReader } & CreditStores & WorkspaceStores> & {
  /** The payment provider (Stripe); absent: self-hosted, nothing charged, owners switch plans freely. */
  billingProvider?: BillingProvider;
  /** What follows a failed payment (`mailHooks`: the payment-failed notice to the owners); without it, nothing. */
  onPaymentFailed?: PaymentFailedHook;
};
