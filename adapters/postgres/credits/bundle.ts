import type { CreditStores } from "../../../core/credits/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresCreditLedgerStore } from "./credit-ledger-store.ts";
import { PostgresIdempotencyStore } from "./idempotency-store.ts";
import { sqlCreditTransfer } from "./transfer.ts";

export function sqlCreditBundle(driver: SqlDriver): SqlBundle<CreditStores> {
  return {
    stores: { creditLedger: new PostgresCreditLedgerStore(driver), idempotency: new PostgresIdempotencyStore(driver) },
    transfer: sqlCreditTransfer(driver),
  };
}
