import type { CoreDeps } from "../deps.ts";
import type { CreditStores } from "../credits/mod.ts";
import type { CapacityKind } from "../kernel/capacity.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { Usage } from "./plans.ts";

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
  /**
   * Takes `n` units of `kind` when `used + n ≤ limit` (always when `limit` is null), atomically:
   * of concurrent claims at `limit − 1` exactly one is taken. Refused, nothing is taken.
   */
  claim(workspaceId: string, kind: CapacityKind, n: number, limit: number | null): Promise<ClaimOutcome>;
  /** Gives back `n` units of `kind` (never below 0). */
  release(workspaceId: string, kind: CapacityKind, n: number): Promise<void>;
}

/** Billing's stores, one bundle per adapter (adapters/<adapter>/billing/). */
export interface BillingStores {
  planUsage: PlanUsageStore;
}

/**
 * The payment provider (Stripe): checkout, portal, its webhooks. A seam here: none is configured
 * yet, and `setPlan` only asks whether there is one (with one, an owner's plain plan switch is
 * refused: plans change through checkout or the portal). The Stripe adapter fills it in.
 */
export interface BillingProvider {
  readonly name: string;
}

/** What Billing's use cases are given: its own stores and those of other modules it reads (ADR 019). */
export type BillingDeps = CoreDeps<BillingStores & CreditStores & WorkspaceStores>;
