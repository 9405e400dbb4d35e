import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";

/**
 * Billing's kinds as they move between stores (ADR 067): each workspace's `BillingAccount` (its
 * current version). Plan usage is not a kind: its counters are derived from the stored items and
 * each store seeds them from an exact count the first time they are touched
 * (docs/decisions/073-people-transfer-kinds.md).
 */
export const BILLING_KINDS = {
  accounts: { name: "billing.accounts", tenant: true, key: ["workspace_id"] },
} as const satisfies Record<string, TransferKindSpec>;
