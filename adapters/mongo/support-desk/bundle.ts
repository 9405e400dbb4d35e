import type { SupportStores } from "../../../core/support-desk/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { SupportCollections } from "./collections.ts";
import { MongoSupportLogStore } from "./support-log-store.ts";
import { mongoSupportTransfer } from "./transfer.ts";

export function mongoSupportBundle(c: SupportCollections & WorkspaceCollections): MongoBundle<SupportStores> {
  return {
    transfer: mongoSupportTransfer(c),
    stores: { supportLog: new MongoSupportLogStore(c) },
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.supportEvents, c.supportConversations),
  };
}
