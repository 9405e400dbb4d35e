import type { MailStores } from "../../../core/mail/ports.ts";
import type { MemoryBundle } from "../bundle.ts";
import type { MailTables } from "./tables.ts";
import { MemoryUnsubscribeStore } from "./unsubscribe-store.ts";
import { memoryMailTransfer } from "./transfer.ts";

export function memoryMailBundle(t: MailTables): MemoryBundle<MailStores> {
  return {
    transfer: memoryMailTransfer(t),
    stores: { unsubscribes: new MemoryUnsubscribeStore(t) },
    // Unsubscribes are a person's, not a workspace's: nothing to purge.
    purgeWorkspace: () => {},
  };
}
