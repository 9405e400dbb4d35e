import type { CollectionStores } from "../../../core/collections/ports.ts";
import type { ContactStores } from "../../../core/contacts/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { ContactCollections } from "./collections.ts";
import { MongoContactUnlockStore } from "./contact-unlock-store.ts";
import { mongoContactTransfer } from "./transfer.ts";
import type { MongoCreditLedgerStore } from "../credits/mod.ts";

/**
 * `ledger`: the credits bundle's (one per process: it remembers each account's head);
 * `collections`: the collection bundle's stores (an unlock's context reads them).
 */
export function mongoContactBundle(
  c: ContactCollections,
  ledger: MongoCreditLedgerStore,
  collections: CollectionStores,
): MongoBundle<ContactStores> {
  return {
    stores: { contactUnlocks: new MongoContactUnlockStore(c, ledger, collections) },
    transfer: mongoContactTransfer(c),
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.radarUnlocks, c.radarUnlockLeases, c.radarUnlockEnds),
  };
}
