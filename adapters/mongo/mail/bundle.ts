import type { MailStores } from "../../../core/mail/ports.ts";
import { type MongoBundle } from "../bundle.ts";
import type { MailCollections } from "./collections.ts";
import { MongoUnsubscribeStore } from "./unsubscribe-store.ts";
import { mongoMailTransfer } from "./transfer.ts";

export function mongoMailBundle(c: MailCollections): MongoBundle<MailStores> {
  return {
    transfer: mongoMailTransfer(c),
    stores: { unsubscribes: new MongoUnsubscribeStore(c) },
    // Unsubscribes are a person's, not a workspace's: nothing to purge.
    purgeWorkspace: async () => {},
  };
}
