import type { MailStores } from "../../../core/mail/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresUnsubscribeStore } from "./unsubscribe-store.ts";
import { sqlMailTransfer } from "./transfer.ts";

export function sqlMailBundle(driver: SqlDriver): SqlBundle<MailStores> {
  return { transfer: sqlMailTransfer(driver), stores: { unsubscribes: new PostgresUnsubscribeStore(driver) } };
}
