import type { SupportStores } from "../../../core/support-desk/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresSupportLogStore } from "./support-log-store.ts";
import { sqlSupportTransfer } from "./transfer.ts";

export function sqlSupportBundle(driver: SqlDriver): SqlBundle<SupportStores> {
  return { transfer: sqlSupportTransfer(driver), stores: { supportLog: new PostgresSupportLogStore(driver) } };
}
