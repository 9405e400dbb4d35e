import type { SharingStores } from "../../../core/sharing/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresShareLinkStore } from "./share-link-store.ts";
import { PostgresNoteShareStore } from "./note-share-store.ts";
import { sqlSharingTransfer } from "./transfer.ts";

export function sqlSharingBundle(driver: SqlDriver): SqlBundle<SharingStores> {
  return {
    stores: {
      shareLinks: new PostgresShareLinkStore(driver),
      noteShares: new PostgresNoteShareStore(driver),
    },
    transfer: sqlSharingTransfer(driver),
  };
}
