import type { CollectionStores } from "../../../core/collections/ports.ts";
import type { ContactStores } from "../../../core/contacts/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryContactUnlockStore } from "./contact-unlock-store.ts";
import type { ContactTables } from "./tables.ts";
import { memoryContactTransfer } from "./transfer.ts";
import { type CreditTables, MemoryCreditLedgerStore } from "../credits/mod.ts";

/** `collections`: the collection bundle's stores (an unlock's context reads them). */
export function memoryContactBundle(t: ContactTables & CreditTables, collections: CollectionStores): MemoryBundle<ContactStores> {
  return {
    stores: { contactUnlocks: new MemoryContactUnlockStore(t, new MemoryCreditLedgerStore(t), collections) },
    transfer: memoryContactTransfer(t),
    purgeWorkspace: (id) => dropWorkspaceRows(id, t.radarUnlocks, t.radarUnlockLeases),
  };
}
