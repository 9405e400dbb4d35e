import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { SUPPORT_KINDS, type SupportConversationDoc, type SupportNotificationDoc } from "../../../core/support-desk/transfer.ts";
import { memoryKind } from "../transfer-kind.ts";
import type { SupportTables } from "./tables.ts";

/** The support log's kinds on the memory adapter. */
export function memorySupportTransfer(t: SupportTables): TransferKind[] {
  return [
    memoryKind<SupportConversationDoc>({
      spec: SUPPORT_KINDS.conversations,
      docs: () => [...t.supportConversations.values()],
      has: (d) => t.supportConversations.has(`${d.workspace_id}:${d.id}`),
      put: (d) => void t.supportConversations.set(`${d.workspace_id}:${d.id}`, d),
    }),
    memoryKind<SupportNotificationDoc>({
      spec: SUPPORT_KINDS.notifications,
      docs: () =>
        [...t.supportNotifications].map(([key, n]) => ({
          workspace_id: n.workspace_id,
          notification_id: key.slice(n.workspace_id.length + 1),
          conversation_id: n.conversation_id,
          received_at: n.received_at,
        })),
      has: (d) => t.supportNotifications.has(`${d.workspace_id}:${d.notification_id}`),
      put: (d) =>
        void t.supportNotifications.set(`${d.workspace_id}:${d.notification_id}`, {
          workspace_id: d.workspace_id,
          conversation_id: d.conversation_id,
          received_at: d.received_at,
        }),
    }),
  ];
}
