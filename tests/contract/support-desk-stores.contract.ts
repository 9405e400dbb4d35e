import type { TestApi } from "./kit/test-api.ts";
import type { SupportNotification } from "../../core/support-desk/model.ts";
import type { Stores } from "../../core/stores.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { bootstrapped, unique } from "./fixtures.ts";

let seq = 0;
/** A notification of `conversation` at second `at` of 2026-02-01 (distinct ids). */
function notification(conversation: string, at: number, over: Partial<SupportNotification> = {}): SupportNotification {
  return {
    notification_id: `notif_${uuidv7()}_${++seq}`,
    conversation_id: conversation,
    topic: "conversation.user.replied",
    state: null,
    title: null,
    occurred_at: new Date(Date.UTC(2026, 1, 1) + at * 1000).toISOString(),
    ...over,
  };
}
const received = () => new Date().toISOString();

/**
 * The contract of support's store port (core/support-desk/ports.ts, docs/decisions/035-support-webhook.md):
 * a notification applied once with its id, none lost under concurrency, the newest deciding the
 * state, lists newest first. Every adapter runs it; each test makes its own workspace.
 */
export function runSupportStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: support log store`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });
    const workspace = async () => (await bootstrapped(s)).workspace.id;

    test("SupportLogStore.record() creates the conversation (state open unless given), then counts and takes the newest", async () => {
      const ws = await workspace();
      const conv = unique("c");
      const first = await s.supportLog.record(
        ws,
        notification(conv, 10, { topic: "conversation.user.created", title: "Login fails" }),
        received(),
      );
      expect(first).toEqual({
        outcome: "recorded",
        conversation: {
          id: conv,
          state: "open",
          title: "Login fails",
          last_topic: "conversation.user.created",
          events: 1,
          updated_at: "2026-02-01T00:00:10.000Z",
        },
      });
      const closed = await s.supportLog.record(
        ws,
        notification(conv, 20, { topic: "conversation.admin.closed", state: "closed" }),
        received(),
      );
      expect(closed).toEqual({
        outcome: "recorded",
        conversation: {
          id: conv,
          state: "closed",
          title: "Login fails",
          last_topic: "conversation.admin.closed",
          events: 2,
          updated_at: "2026-02-01T00:00:20.000Z",
        },
      });
      expect(await s.supportLog.get(ws, conv)).toEqual(closed.outcome === "recorded" ? closed.conversation : null);
      expect(await s.supportLog.get(ws, unique("none"))).toBeNull();
    });

    test("SupportLogStore.record() of an older notification arriving late counts it and keeps the newest state", async () => {
      const ws = await workspace();
      const conv = unique("c");
      await s.supportLog.record(ws, notification(conv, 30, { topic: "conversation.admin.snoozed", state: "snoozed" }), received());
      const late = await s.supportLog.record(
        ws,
        notification(conv, 5, { topic: "conversation.user.created", state: "open", title: "Old" }),
        received(),
      );
      expect(late).toEqual({
        outcome: "recorded",
        conversation: {
          id: conv,
          state: "snoozed",
          title: "Old",
          last_topic: "conversation.admin.snoozed",
          events: 2,
          updated_at: "2026-02-01T00:00:30.000Z",
        },
      });
    });

    test("SupportLogStore.record() of a notification recorded before is duplicate, nothing changed (per workspace)", async () => {
      const ws = await workspace();
      const conv = unique("c");
      const n = notification(conv, 1);
      expect((await s.supportLog.record(ws, n, received())).outcome).toBe("recorded");
      expect(await s.supportLog.record(ws, { ...n, occurred_at: "2026-03-01T00:00:00.000Z" }, received())).toEqual({
        outcome: "duplicate",
      });
      expect((await s.supportLog.get(ws, conv))?.events).toBe(1);
      const other = await workspace();
      expect((await s.supportLog.record(other, n, received())).outcome).toBe("recorded");
    });

    test("SupportLogStore.record() of 20 notifications of one conversation at once: events 20", async () => {
      const ws = await workspace();
      const conv = unique("c");
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.supportLog.record(ws, notification(conv, i + 1), received())),
      );
      expect(outcomes.every((o) => o.outcome === "recorded")).toBe(true);
      expect((await s.supportLog.get(ws, conv))?.events).toBe(20);
      const listed = await s.supportLog.list(ws, { limit: 10, offset: 0 });
      expect(listed.total).toBe(1);
      expect(listed.items[0]).toMatchObject({ id: conv, events: 20, updated_at: "2026-02-01T00:00:20.000Z" });
    });

    test("SupportLogStore.record() of one notification 8 times at once: recorded once", async () => {
      const ws = await workspace();
      const conv = unique("c");
      const n = notification(conv, 1);
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => s.supportLog.record(ws, n, received())));
      expect(outcomes.filter((o) => o.outcome === "recorded").length).toBe(1);
      expect(outcomes.filter((o) => o.outcome === "duplicate").length).toBe(7);
      expect((await s.supportLog.get(ws, conv))?.events).toBe(1);
    });

    test("SupportLogStore.record() for a workspace that does not exist is no_workspace, nothing kept", async () => {
      expect(await s.supportLog.record(uuidv7(), notification(unique("c"), 1), received())).toEqual({ outcome: "no_workspace" });
    });

    test("SupportLogStore.list() is the workspace's conversations, newest first (then id descending), offset-paged", async () => {
      const ws = await workspace();
      await s.supportLog.record(ws, notification("c-1", 10), received());
      await s.supportLog.record(ws, notification("c-2", 30), received());
      await s.supportLog.record(ws, notification("c-3", 20), received());
      await s.supportLog.record(ws, notification("c-4", 20), received());
      await s.supportLog.record(ws, notification("c-1", 40), received());
      await s.supportLog.record(await workspace(), notification("c-9", 50), received());
      const all = await s.supportLog.list(ws, { limit: 200, offset: 0 });
      expect(all.total).toBe(4);
      expect(all.items.map((c) => c.id)).toEqual(["c-1", "c-2", "c-4", "c-3"]);
      expect(all.items[0]).toMatchObject({ events: 2, updated_at: "2026-02-01T00:00:40.000Z" });
      const second = await s.supportLog.list(ws, { limit: 2, offset: 2 });
      expect(second).toEqual({ items: all.items.slice(2), total: 4 });
      expect(await s.supportLog.list(ws, { limit: 2, offset: 4 })).toEqual({ items: [], total: 4 });
    });

    test("WorkspaceStore.delete() removes the workspace's support conversations and notifications", async () => {
      const b = await bootstrapped(s);
      const n = notification("c-1", 1);
      await s.supportLog.record(b.workspace.id, n, received());
      await s.workspaces.delete(b.workspace.id);
      expect(await s.supportLog.list(b.workspace.id, { limit: 10, offset: 0 })).toEqual({ items: [], total: 0 });
      expect(await s.supportLog.get(b.workspace.id, "c-1")).toBeNull();
    });
  });
}
