import type { SupportNotification } from "../../../core/support-desk/model.ts";
import { stamp, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const seeded = new Map<string, { conversations: string[]; first: SupportNotification }>();

/**
 * The support log's kinds (core/support-desk/transfer.ts): two conversations from three
 * notifications. On the copy the conversations read the same, a recorded notification is a
 * duplicate, and a new one counts on from the copied events.
 */
export const supportSeeder: TransferSeeder = {
  module: "support-desk",
  async seed(s, ws) {
    const wsId = ws.workspace.id;
    const a = unique("conv"), b = unique("conv");
    const n = (conversation_id: string, over: Partial<SupportNotification>): SupportNotification => ({
      notification_id: unique("notif"),
      conversation_id,
      topic: "conversation.user.created",
      state: null,
      title: null,
      occurred_at: stamp(),
      ...over,
    });
    const first = n(a, { title: "Ça ne marche pas ✗" });
    for (const x of [first, n(a, { topic: "conversation.admin.closed", state: "closed" }), n(b, {})]) {
      if ((await s.supportLog.record(wsId, x, stamp())).outcome !== "recorded") throw new Error("seed: not recorded");
    }
    seeded.set(wsId, { conversations: [a, b], first });
  },
  async verify(source, target, ws, expect) {
    const wsId = ws.workspace.id;
    const x = seeded.get(wsId)!;
    const page = { offset: 0, limit: 50 };
    expect(await target.supportLog.list(wsId, page)).toEqual(await source.supportLog.list(wsId, page));
    for (const id of x.conversations) expect(await target.supportLog.get(wsId, id)).toEqual(await source.supportLog.get(wsId, id));
    // Recording needs the workspace (the workspaces module's kinds, copied before these).
    if (!(await target.workspaces.getById(wsId))) return;
    expect((await target.supportLog.record(wsId, x.first, stamp())).outcome).toBe("duplicate");
    const next = { ...x.first, notification_id: unique("notif"), topic: "conversation.user.replied", occurred_at: stamp() };
    const after = await target.supportLog.record(wsId, next, stamp());
    expect(after.outcome === "recorded" ? { events: after.conversation.events, state: after.conversation.state } : after)
      .toEqual({ events: 3, state: "closed" });
  },
};
