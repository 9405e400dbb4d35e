import type { SupportStores } from "../../../core/support-desk/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import { MemorySupportLogStore } from "./support-log-store.ts";
import type { SupportTables } from "./tables.ts";
import { memorySupportTransfer } from "./transfer.ts";

export function memorySupportBundle(t: SupportTables & WorkspaceTables): MemoryBundle<SupportStores> {
  return {
    transfer: memorySupportTransfer(t),
    stores: { supportLog: new MemorySupportLogStore(t) },
    purgeWorkspace: (id) => dropWorkspaceRows(id, t.supportConversations, t.supportNotifications),
  };
}
