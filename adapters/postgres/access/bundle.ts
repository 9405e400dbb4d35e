import type { AccessStores } from "../../../core/access/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresApiKeyStore } from "./api-key-store.ts";
import { sqlAccessTransfer } from "./transfer.ts";

export function sqlAccessBundle(driver: SqlDriver): SqlBundle<AccessStores> {
  return {
    stores: {
      apiKeys: new PostgresApiKeyStore(driver),
    },
    transfer: sqlAccessTransfer(driver),
  };
}
