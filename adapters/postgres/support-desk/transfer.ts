import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { SUPPORT_KINDS, type SupportConversationDoc, type SupportNotificationDoc } from "../../../core/support-desk/transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { str } from "../row-values.ts";
import { plainColumns, sqlKind } from "../transfer-kind.ts";
import { conversation } from "./support-log-store.ts";

/** The support log's kinds over its tables (migration 019). */
export function sqlSupportTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind<SupportConversationDoc>(db, {
      spec: SUPPORT_KINDS.conversations,
      table: "support_conversations",
      select: "t.workspace_id, t.id, t.state, t.title, t.last_topic, t.events, t.updated_at",
      toDoc: (r) => ({ workspace_id: str(r.workspace_id), ...conversation(r) }),
      keyColumns: [{ name: "id", text: true }],
      columns: plainColumns<SupportConversationDoc>("workspace_id", "id", "state", "title", "last_topic", "events", "updated_at"),
    }),
    sqlKind<SupportNotificationDoc>(db, {
      spec: SUPPORT_KINDS.notifications,
      table: "support_notifications",
      select: "t.workspace_id, t.notification_id, t.conversation_id, t.received_at",
      toDoc: (r) => ({
        workspace_id: str(r.workspace_id),
        notification_id: str(r.notification_id),
        conversation_id: str(r.conversation_id),
        received_at: iso(r.received_at),
      }),
      keyColumns: [{ name: "notification_id", text: true }],
      columns: plainColumns<SupportNotificationDoc>("workspace_id", "notification_id", "conversation_id", "received_at"),
    }),
  ];
}
