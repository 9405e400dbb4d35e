import type { SharingStores } from "../../../core/sharing/ports.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { TopicCollections } from "../topics/mod.ts";
import type { SharingCollections } from "./collections.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import { MongoShareLinkStore } from "./share-link-store.ts";
import { MongoNoteShareStore } from "./note-share-store.ts";
import { mongoSharingTransfer } from "./transfer.ts";

export function mongoSharingBundle(c: WorkspaceCollections & TopicCollections & SharingCollections): MongoBundle<SharingStores> {
  return {
    stores: {
      shareLinks: new MongoShareLinkStore(c),
      noteShares: new MongoNoteShareStore(c),
    },
    transfer: mongoSharingTransfer(c),
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.shareLinks, c.noteShares),
  };
}
