import type { BillingAccount } from "../../../core/billing/account.ts";
import { BILLING_KINDS } from "../../../core/billing/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import type { BillingAccountDoc, BillingCollections } from "./collections.ts";

/**
 * Billing's kinds: an account is its newest version (older versions are history no read
 * returns; the copy's next put follows the copied version). Plan slots are derived, not moved (ADR 073).
 */
export function mongoBillingTransfer(c: BillingCollections): TransferKind[] {
  return [
    mongoKind({
      spec: BILLING_KINDS.accounts,
      collection: c.billingAccounts,
      keyFields: ["workspace_id"],
      sortTail: { version: -1 },
      count: async (filter) => (await c.billingAccounts.distinct("workspace_id", filter)).length,
      toDocs: async (page) => {
        const out: BillingAccount[] = [];
        for (const d of page) {
          if (out.at(-1)?.workspace_id === d.workspace_id) continue;
          const { _id: _, ...rest } = d;
          out.push({ ...rest, status: rest.status as BillingAccount["status"], plan: rest.plan as BillingAccount["plan"] });
        }
        return out;
      },
      write: async (docs: BillingAccount[]) => {
        const held = new Set(await c.billingAccounts.distinct("workspace_id", { workspace_id: { $in: docs.map((d) => d.workspace_id) } }));
        const fresh = docs.filter((d) => !held.has(d.workspace_id));
        return (await insertMissing(
          c.billingAccounts,
          fresh.map((a): BillingAccountDoc => ({ ...a, _id: `${a.workspace_id}:${a.version}` })),
        ))
          .length;
      },
    }),
  ];
}
