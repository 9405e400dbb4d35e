import type { AccessStores } from "../../../core/access/ports.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import { inWorkspace } from "../rows.ts";
import type { MemoryBundle } from "../bundle.ts";
import { MemoryApiKeyStore } from "./api-key-store.ts";
import type { AccessTables } from "./tables.ts";
import { memoryAccessTransfer } from "./transfer.ts";

export function memoryAccessBundle(t: AccessTables & WorkspaceTables): MemoryBundle<AccessStores> {
  return {
    stores: { apiKeys: new MemoryApiKeyStore(t) },
    transfer: memoryAccessTransfer(t),
    purgeWorkspace(id) {
      for (const k of inWorkspace(t.apiKeys, id)) {
        t.apiKeys.delete(k.id);
        t.apiKeyIdByHash.delete(k.key_hash);
      }
    },
  };
}
