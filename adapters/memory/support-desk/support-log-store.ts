import { applyNotification, type SupportConversation, type SupportNotification } from "../../../core/support-desk/model.ts";
import type { SupportLogStore, SupportRecordOutcome } from "../../../core/support-desk/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { copy, inWorkspace, page } from "../rows.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { SupportTables } from "./tables.ts";

const view = ({ workspace_id: _, ...c }: SupportConversation & { workspace_id: string }): SupportConversation => copy(c);

/** Every method runs in one turn of the event loop, so a record (the id and the effect) is atomic. */
export class MemorySupportLogStore implements SupportLogStore {
  constructor(private t: SupportTables & WorkspaceTables) {}

  async record(workspaceId: string, n: SupportNotification, receivedAt: string): Promise<SupportRecordOutcome> {
    if (!this.t.workspaces.has(workspaceId)) return { outcome: "no_workspace" };
    const nKey = `${workspaceId}:${n.notification_id}`;
    if (this.t.supportNotifications.has(nKey)) return { outcome: "duplicate" };
    const cKey = `${workspaceId}:${n.conversation_id}`;
    const prev = this.t.supportConversations.get(cKey);
    const next = applyNotification(prev ? view(prev) : null, n);
    this.t.supportNotifications.set(nKey, { workspace_id: workspaceId, conversation_id: n.conversation_id, received_at: receivedAt });
    this.t.supportConversations.set(cKey, { ...copy(next), workspace_id: workspaceId });
    return { outcome: "recorded", conversation: next };
  }

  async get(workspaceId: string, conversationId: string): Promise<SupportConversation | null> {
    const c = this.t.supportConversations.get(`${workspaceId}:${conversationId}`);
    return c ? view(c) : null;
  }

  async list(workspaceId: string, p: OffsetPage): Promise<{ items: SupportConversation[]; total: number }> {
    const rows = inWorkspace(this.t.supportConversations, workspaceId).sort((a, b) =>
      a.updated_at === b.updated_at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.updated_at < b.updated_at ? 1 : -1
    );
    const { items, total } = page(rows, p.offset, p.limit);
    return { items: items.map(view), total };
  }
}
