import type { BillingStores } from "../../../core/billing/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresPlanUsageStore } from "./plan-usage-store.ts";
import { PostgresContractStore, PostgresOfferStore } from "./offer-store.ts";

export function sqlBillingBundle(driver: SqlDriver): SqlBundle<BillingStores> {
  return {
    stores: {
      planUsage: new PostgresPlanUsageStore(driver),
      offers: new PostgresOfferStore(driver),
      contracts: new PostgresContractStore(driver),
    },
  };
}
