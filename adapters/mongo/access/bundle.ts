import type { AccessStores } from "../../../core/access/ports.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { AccessCollections } from "./collections.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import { MongoApiKeyStore } from "./api-key-store.ts";
import { mongoAccessTransfer } from "./transfer.ts";

export function mongoAccessBundle(c: WorkspaceCollections & AccessCollections): MongoBundle<AccessStores> {
  return {
    stores: {
      apiKeys: new MongoApiKeyStore(c),
    },
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.apiKeys),
    transfer: mongoAccessTransfer(c),
  };
}
