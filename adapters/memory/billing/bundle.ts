import type { BillingStores } from "../../../core/billing/ports.ts";
import { CAPACITY_KINDS } from "../../../core/kernel/capacity.ts";
import type { MemoryBundle } from "../bundle.ts";
import { MemoryBillingAccountStore } from "./billing-account-store.ts";
import { MemoryPlanUsageStore } from "./plan-usage-store.ts";
import type { BillingTables } from "./tables.ts";
import type { CollectionTables } from "../collections/mod.ts";
import type { TopicTables } from "../topics/mod.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import { memoryBillingTransfer } from "./transfer.ts";

export function memoryBillingBundle(t: BillingTables & WorkspaceTables & TopicTables & CollectionTables): MemoryBundle<BillingStores> {
  return {
    transfer: memoryBillingTransfer(t),
    stores: {
      planUsage: new MemoryPlanUsageStore(t),
      billingAccounts: new MemoryBillingAccountStore(t),
    },
    purgeWorkspace: (id) => {
      for (const kind of CAPACITY_KINDS) t.planUsage.delete(`${id}:${kind}`);
      t.billingAccounts.delete(id);
    },
  };
}
