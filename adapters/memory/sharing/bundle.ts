import type { SharingStores } from "../../../core/sharing/ports.ts";
import type { TopicTables } from "../topics/mod.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { MemoryBundle } from "../bundle.ts";
import { dropWorkspaceShares } from "./cascades.ts";
import { MemoryNoteShareStore } from "./note-share-store.ts";
import { MemoryShareLinkStore } from "./share-link-store.ts";
import type { SharingTables } from "./tables.ts";
import { memorySharingTransfer } from "./transfer.ts";

export function memorySharingBundle(t: SharingTables & TopicTables & WorkspaceTables): MemoryBundle<SharingStores> {
  return {
    stores: { shareLinks: new MemoryShareLinkStore(t), noteShares: new MemoryNoteShareStore(t) },
    transfer: memorySharingTransfer(t),
    purgeWorkspace: (id) => dropWorkspaceShares(t, id),
  };
}
