import type { Plan } from "../workspaces/mod.ts";
import type { BillingStatus } from "./dto.ts";

/**
 * A workspace's account at the billing provider (docs/decisions/033-billing-provider-and-webhook.md):
 * its customer (one per workspace), its subscription, the subscription's status and current
 * period, the plan billing set, and the `created` (Unix seconds) of the last provider event
 * applied, so that an older event arriving late is recognised as stale.
 */
export interface BillingAccount {
  workspace_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  status: BillingStatus;
  /** The plan the subscription pays for; null: none (free). */
  plan: Plan | null;
  current_period_start: string | null;
  current_period_end: string | null;
  /** `created` of the last applied subscription-state event (Unix seconds); null: none yet. */
  last_event_created: number | null;
  updated_at: string;
  /** Bumped by every write: a write names the version it read (compare-and-set). */
  version: number;
}

/** What an event changes of the account (absent fields stay as they are). */
export type BillingAccountChange = Partial<
  Pick<BillingAccount, "customer_id" | "subscription_id" | "status" | "plan" | "current_period_start" | "current_period_end">
>;

/** A fresh account (no customer, status `none`). */
export function emptyAccount(workspaceId: string, at: string): BillingAccount {
  return {
    workspace_id: workspaceId,
    customer_id: null,
    subscription_id: null,
    status: "none",
    plan: null,
    current_period_start: null,
    current_period_end: null,
    last_event_created: null,
    updated_at: at,
    version: 0,
  };
}

/**
 * The account after an event created at `created` (Unix seconds; null: not a provider event, no
 * staleness) applied `change` at `at`; null when the event is older than the last applied one
 * (stale: nothing changes). An event of the same second applies (a redelivery after a failure
 * re-applies the same change).
 */
export function applyAccountChange(
  current: BillingAccount | null,
  workspaceId: string,
  change: BillingAccountChange,
  created: number | null,
  at: string,
): BillingAccount | null {
  const base = current ?? emptyAccount(workspaceId, at);
  if (created !== null && base.last_event_created !== null && created < base.last_event_created) return null;
  const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as BillingAccountChange;
  return {
    ...base,
    ...defined,
    last_event_created: created === null ? base.last_event_created : Math.max(created, base.last_event_created ?? created),
    updated_at: at,
    version: base.version + 1,
  };
}

export type ApplyOutcome = { kind: "applied"; account: BillingAccount } | { kind: "stale"; account: BillingAccount };

/** Attempts of a compare-and-set before giving up (each retry reads the newer version). */
const MAX_ATTEMPTS = 20;

/**
 * Reads the account, computes the next one with `next` (null: nothing to write) and writes it if
 * no other write came in between; else reads again. Every backend's `put` is a compare-and-set on
 * `version`, so concurrent events each see the one before them.
 */
export async function updateAccount(
  store: BillingAccountStore,
  workspaceId: string,
  next: (current: BillingAccount | null) => BillingAccount | null,
): Promise<{ written: BillingAccount | null; current: BillingAccount | null }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await store.get(workspaceId);
    const wanted = next(current);
    if (!wanted) return { written: null, current };
    if (await store.put(wanted, current?.version ?? null)) return { written: wanted, current: wanted };
  }
  throw new Error(`Cannot update the billing account of workspace ${workspaceId}: too many concurrent writes`);
}

/**
 * The customer of a workspace at the provider, one per workspace: an account's customer, once
 * recorded, is never replaced (of two concurrent checkouts, the first recorded wins and the other
 * uses it).
 */
export async function attachCustomer(store: BillingAccountStore, workspaceId: string, customerId: string, at: string): Promise<string> {
  const { current } = await updateAccount(
    store,
    workspaceId,
    (c) => c?.customer_id ? null : applyAccountChange(c, workspaceId, { customer_id: customerId }, null, at),
  );
  return current?.customer_id ?? customerId;
}

/**
 * The billing accounts of workspaces (docs/decisions/033-billing-provider-and-webhook.md). Absence
 * is null, never a throw.
 */
export interface BillingAccountStore {
  get(workspaceId: string): Promise<BillingAccount | null>;
  /** Several workspaces' accounts in one read (at most a page, 200): by workspace id, absent ones left out. */
  getMany(workspaceIds: readonly string[]): Promise<Map<string, BillingAccount>>;
  /** The account whose customer this is (the webhook's `invoice.*` events name the customer only). */
  getByCustomer(customerId: string): Promise<BillingAccount | null>;
  /**
   * Writes `account` (whose `version` is `expected + 1`, or 1) if the stored version is `expected`
   * (null: none stored yet); false when another write came first, nothing written. Of concurrent
   * puts naming one version exactly one is true.
   */
  put(account: BillingAccount, expected: number | null): Promise<boolean>;
}
