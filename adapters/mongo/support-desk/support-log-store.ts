import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { applyNotification, type SupportConversation, type SupportNotification } from "../../../core/support-desk/model.ts";
import type { SupportLogStore, SupportRecordOutcome } from "../../../core/support-desk/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { listPage } from "../list-page.ts";
import { backoff } from "../retry.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { SupportCollections } from "./collections.ts";
import { conversationOfDoc, conversationOfEvent, type SupportEventDoc } from "./documents.ts";

/** Tries of one record (each lost only to a concurrent notification of the same conversation). */
const MAX_ATTEMPTS = 200;
/** Rounds of bringing the listed document up to the highest event. */
const MAX_SETTLE = 50;

/**
 * ADR 005's discipline (an insert under a unique key is the one atomic write): a notification is
 * an event document `<workspace>:<conversation>:<seq>` holding the conversation after it, `seq`
 * one past the highest. Of concurrent notifications of one conversation exactly one inserts each
 * `seq`; the others read again and take the next, so none is lost. The unique
 * `(workspace_id, notification_id)` refuses a notification recorded before, in the same insert.
 * The listed document is a copy of the highest event, brought up to it after each insert
 * (`settle`), by plain replaces: whoever replaces last checks again, so it ends at the highest.
 */
export class MongoSupportLogStore implements SupportLogStore {
  constructor(private c: SupportCollections & WorkspaceCollections) {}

  private top(workspaceId: string, conversationId: string): Promise<SupportEventDoc | null> {
    return this.c.supportEvents.find({ workspace_id: workspaceId, conversation_id: conversationId }).sort({ seq: -1 }).limit(1).next();
  }

  private async recorded(workspaceId: string, notificationId: string): Promise<boolean> {
    return (await this.c.supportEvents.findOne({ workspace_id: workspaceId, notification_id: notificationId })) !== null;
  }

  async record(workspaceId: string, n: SupportNotification, receivedAt: string): Promise<SupportRecordOutcome> {
    if (!(await this.c.workspaces.findOne({ _id: workspaceId }, { projection: { _id: 1 } }))) return { outcome: "no_workspace" };
    if (await this.recorded(workspaceId, n.notification_id)) return { outcome: "duplicate" };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const top = await this.top(workspaceId, n.conversation_id);
      const next = applyNotification(top ? conversationOfEvent(top) : null, n);
      try {
        await this.c.supportEvents.insertOne({
          _id: `${workspaceId}:${n.conversation_id}:${next.events}`,
          workspace_id: workspaceId,
          conversation_id: n.conversation_id,
          seq: next.events,
          notification_id: n.notification_id,
          state: next.state,
          title: next.title,
          last_topic: next.last_topic,
          updated_at: next.updated_at,
          received_at: receivedAt,
        });
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        if (await this.recorded(workspaceId, n.notification_id)) return { outcome: "duplicate" };
        await backoff(attempt);
        continue;
      }
      await this.settle(workspaceId, n.conversation_id);
      return { outcome: "recorded", conversation: next };
    }
    throw new Error(`Support log: conversation ${n.conversation_id} too busy to record a notification`);
  }

  /** Brings the listed document up to the conversation's highest event. */
  private async settle(workspaceId: string, conversationId: string): Promise<void> {
    const _id = `${workspaceId}:${conversationId}`;
    for (let round = 0; round < MAX_SETTLE; round++) {
      const [top, listed] = await Promise.all([this.top(workspaceId, conversationId), this.c.supportConversations.findOne({ _id })]);
      if (!top || (listed && listed.events >= top.seq)) return;
      const c = conversationOfEvent(top);
      try {
        await this.c.supportConversations.replaceOne({ _id }, { workspace_id: workspaceId, ...c, events: top.seq }, { upsert: true });
      } catch (e) {
        // Two first upserts of one conversation: the other inserted; check again.
        if (!isDuplicateKey(e)) throw e;
      }
    }
  }

  async get(workspaceId: string, conversationId: string): Promise<SupportConversation | null> {
    const top = await this.top(workspaceId, conversationId);
    return top ? conversationOfEvent(top) : null;
  }

  list(workspaceId: string, page: OffsetPage): Promise<{ items: SupportConversation[]; total: number }> {
    return listPage(this.c.supportConversations, { workspace_id: workspaceId }, { updated_at: -1, id: -1 }, page, conversationOfDoc);
  }
}
