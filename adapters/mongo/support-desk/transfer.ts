import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { SUPPORT_KINDS, type SupportConversationDoc, type SupportNotificationDoc } from "../../../core/support-desk/transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import type { SupportCollections } from "./collections.ts";
import { conversationOfDoc, type SupportEventDoc } from "./documents.ts";

/**
 * The support log's kinds. Conversations are the listed documents (`_id` `<workspace>:<id>`, whose
 * order is the key's: a uuid is of fixed length). Notifications are the event documents; written
 * back, a conversation's notifications become its events 1…n after those it holds, each holding
 * the conversation as copied, so the highest is its state and the next notification takes n + 1
 * (written after the conversations: kind order).
 */
export function mongoSupportTransfer(c: SupportCollections): TransferKind[] {
  return [
    mongoKind({
      spec: SUPPORT_KINDS.conversations,
      collection: c.supportConversations,
      keyFields: ["_id"],
      toDocs: async (page) => page.map((d): SupportConversationDoc => ({ workspace_id: d.workspace_id, ...conversationOfDoc(d) })),
      write: async (docs: SupportConversationDoc[]) =>
        (await insertMissing(c.supportConversations, docs.map((d) => ({ _id: `${d.workspace_id}:${d.id}`, ...d })))).length,
    }),
    mongoKind({
      spec: SUPPORT_KINDS.notifications,
      collection: c.supportEvents,
      // Served by `workspace_notification_unique`.
      keyFields: ["notification_id"],
      toDocs: async (page) =>
        page.map((d): SupportNotificationDoc => ({
          workspace_id: d.workspace_id,
          notification_id: d.notification_id,
          conversation_id: d.conversation_id,
          received_at: d.received_at,
        })),
      write: (docs: SupportNotificationDoc[]) => writeNotifications(c, docs),
    }),
  ];
}

async function writeNotifications(c: SupportCollections, docs: SupportNotificationDoc[]): Promise<number> {
  let added = 0;
  for (const ws of new Set(docs.map((d) => d.workspace_id))) {
    const mine = docs.filter((d) => d.workspace_id === ws);
    const held = new Set(
      (await c.supportEvents.find({ workspace_id: ws, notification_id: { $in: mine.map((d) => d.notification_id) } }).toArray())
        .map((e) => e.notification_id),
    );
    const fresh = mine.filter((d) => !held.has(d.notification_id))
      .sort((
        a,
        b,
      ) => (a.received_at < b.received_at ? -1 : a.received_at > b.received_at ? 1 : a.notification_id < b.notification_id ? -1 : 1));
    if (fresh.length === 0) continue;
    const ids = [...new Set(fresh.map((d) => d.conversation_id))];
    // The highest event each conversation holds already (served by `workspace_conversation_seq`).
    const top = new Map<string, number>();
    const seqs = await c.supportEvents.find({ workspace_id: ws, conversation_id: { $in: ids } }, {
      projection: { conversation_id: 1, seq: 1 },
    })
      .toArray();
    for (const e of seqs) top.set(e.conversation_id, Math.max(top.get(e.conversation_id) ?? 0, e.seq));
    const listed = new Map(
      (await c.supportConversations.find({ _id: { $in: ids.map((id) => `${ws}:${id}`) } }).toArray()).map((d) => [d.id, d]),
    );
    const events: SupportEventDoc[] = fresh.map((d) => {
      const seq = (top.get(d.conversation_id) ?? 0) + 1;
      top.set(d.conversation_id, seq);
      const conv = listed.get(d.conversation_id);
      return {
        _id: `${ws}:${d.conversation_id}:${seq}`,
        workspace_id: ws,
        conversation_id: d.conversation_id,
        seq,
        notification_id: d.notification_id,
        state: conv?.state ?? "open",
        title: conv?.title ?? null,
        last_topic: conv?.last_topic ?? "",
        updated_at: conv?.updated_at ?? d.received_at,
        received_at: d.received_at,
      };
    });
    added += (await insertMissing(c.supportEvents, events)).length;
  }
  return added;
}
