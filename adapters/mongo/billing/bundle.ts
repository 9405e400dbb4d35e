import type { BillingStores } from "../../../core/billing/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { CollectionCollections } from "../collections/mod.ts";
import type { TopicCollections } from "../topics/mod.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { BillingCollections } from "./collections.ts";
import { MongoBillingAccountStore } from "./billing-account-store.ts";
import { MongoPlanUsageStore } from "./plan-usage-store.ts";
import { mongoBillingTransfer } from "./transfer.ts";

export function mongoBillingBundle(
  c: BillingCollections & WorkspaceCollections & TopicCollections & CollectionCollections,
): MongoBundle<BillingStores> {
  const planUsage = new MongoPlanUsageStore(c);
  return {
    transfer: mongoBillingTransfer(c),
    stores: {
      planUsage,
      billingAccounts: new MongoBillingAccountStore(c),
    },
    purgeWorkspace: async (id) => {
      planUsage.forget(id);
      await deleteWorkspaceDocs(id, c.planSlots, c.planSeeds, c.billingAccounts);
    },
  };
}
