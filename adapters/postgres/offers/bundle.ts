import type { OfferStores } from "../../../core/offers/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresContractStore, PostgresOfferStore } from "./offer-store.ts";
import { sqlOfferTransfer } from "./transfer.ts";

/** Offers' SQL stores (tables of migrations 018 and 026); a workspace's rows go with it (foreign keys cascade). */
export function sqlOfferBundle(driver: SqlDriver): SqlBundle<OfferStores> {
  return {
    transfer: sqlOfferTransfer(driver),
    stores: { offers: new PostgresOfferStore(driver), contracts: new PostgresContractStore(driver) },
  };
}
