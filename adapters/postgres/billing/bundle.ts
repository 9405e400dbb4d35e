import type { BillingStores } from "../../../core/billing/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresBillingAccountStore } from "./billing-account-store.ts";
import { PostgresPlanUsageStore } from "./plan-usage-store.ts";
import { sqlBillingTransfer } from "./transfer.ts";

export function sqlBillingBundle(driver: SqlDriver): SqlBundle<BillingStores> {
  return {
    transfer: sqlBillingTransfer(driver),
    stores: {
      planUsage: new PostgresPlanUsageStore(driver),
      billingAccounts: new PostgresBillingAccountStore(driver),
    },
  };
}
