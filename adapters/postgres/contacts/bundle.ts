import type { ContactStores } from "../../../core/contacts/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresContactUnlockStore } from "./contact-unlock-store.ts";
import { sqlContactTransfer } from "./transfer.ts";

/** Contacts' SQL stores (tables of migrations 011 and 031); a workspace's rows go with it (foreign keys cascade). */
export function sqlContactBundle(driver: SqlDriver): SqlBundle<ContactStores> {
  return { stores: { contactUnlocks: new PostgresContactUnlockStore(driver) }, transfer: sqlContactTransfer(driver) };
}
