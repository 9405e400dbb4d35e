import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { WorkspaceEvent } from "../../core/events/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { hubSignatureSha1 } from "../../core/webhooks/signature.ts";
import { personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const SECRET = "intercom-client-secret-0123456789";

/** `HEAD`/`POST /webhooks/support` and `GET /workspaces/{slug}/support/conversations` over HTTP, with real signatures. */
export function runSupportSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let n = 0;
    const tag = name.replace(/\W/g, "");
    /** An Intercom notification; `workspaceId` goes into the conversation's custom attributes. */
    const notification = (topic: string, conversation: unknown, opts: { id?: string; at?: number; workspaceId?: string | null } = {}) => ({
      type: "notification_event",
      app_id: "abc123",
      id: opts.id ?? `notif_${tag}_${++n}`,
      topic,
      created_at: opts.at ?? 1_780_000_000 + n,
      delivery_status: "pending",
      delivery_attempts: 1,
      data: {
        type: "notification_event_data",
        item: typeof conversation === "object" && conversation !== null
          ? {
            type: "conversation",
            ...conversation,
            custom_attributes: opts.workspaceId === null ? {} : { workspace_id: opts.workspaceId },
          }
          : conversation,
      },
    });
    const deliver = async (body: unknown, opts: { secret?: string; signature?: string | null } = {}) => {
      const raw = typeof body === "string" ? body : JSON.stringify(body);
      const sig = opts.signature === undefined
        ? await hubSignatureSha1(opts.secret ?? SECRET, new TextEncoder().encode(raw))
        : opts.signature;
      return t.call("POST", "/webhooks/support", {
        rawBody: raw,
        headers: { "content-type": "application/json", ...(sig === null ? {} : { "x-hub-signature": sig }) },
      });
    };
    const workspaceIdOf = async (slug: string) => (await t.core.stores.workspaces.getBySlug(slug))!.id;

    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), { supportWebhookSecret: SECRET });
    });

    test("secret unset: HEAD and POST are 404", async () => {
      const bare = await makeTestApp();
      expect((await bare.call("HEAD", "/webhooks/support")).status).toBe(404);
      const res = await bare.call("POST", "/webhooks/support", { rawBody: "{}", headers: { "content-type": "application/json" } });
      expect(res.status).toBe(404);
    });

    test("HEAD (Intercom's URL check): 200, no body", async () => {
      const res = await t.call("HEAD", "/webhooks/support");
      expect(res.status).toBe(200);
    });

    test("hubSignatureSha1() is sha1= and the hex HMAC-SHA1 of the body (RFC 2202 case 2)", async () => {
      expect(await hubSignatureSha1("Jefe", new TextEncoder().encode("what do ya want for nothing?"))).toBe(
        "sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
      );
    });

    test("a missing, malformed or wrong signature: 401 INVALID_SIGNATURE, nothing changed", async () => {
      const p = await personas(t, `sup-sig-${tag}`.toLowerCase());
      const ws = await workspaceIdOf(p.slug);
      const event = notification("conversation.user.created", { id: "sig-1", state: "open" }, { workspaceId: ws });
      for (
        const res of [
          await deliver(event, { signature: null }),
          await deliver(event, { signature: "sha1=zz" }),
          await deliver(event, { signature: "sha256=" + "0".repeat(64) }),
          await deliver(event, { secret: "another-secret" }),
          await deliver(event, { signature: await hubSignatureSha1(SECRET, new TextEncoder().encode("{}")) }),
        ]
      ) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("INVALID_SIGNATURE");
      }
      const list = await t.call("GET", `/workspaces/${p.slug}/support/conversations`, { key: p.owner });
      expect(list.body).toEqual({ conversations: [], total: 0, has_more: false });
    });

    test("a signed body that is not an Intercom notification: 400", async () => {
      expect((await deliver("not json")).status).toBe(400);
      expect((await deliver({ type: "event", id: "x", topic: "ping", data: {} })).status).toBe(400);
      expect((await deliver({ type: "notification_event", topic: "ping", data: {} })).status).toBe(400);
    });

    test("ping: 200 ping; other topics and conversations naming no known workspace: 200 ignored", async () => {
      const ping = await deliver(notification("ping", { message: "hi" }));
      expect(ping.status).toBe(200);
      expect(ping.body).toMatchObject({ received: true, outcome: "ping", topic: "ping" });
      const user = await deliver(notification("user.created", { id: "u1" }));
      expect(user.body).toMatchObject({ received: true, outcome: "ignored", topic: "user.created" });
      for (const workspaceId of [null, "not-a-uuid", "0190f3a0-0000-7000-8000-000000000000"]) {
        const res = await deliver(notification("conversation.user.created", { id: "c1" }, { workspaceId }));
        expect(res.status).toBe(200);
        expect(res.body.outcome).toBe("ignored");
      }
    });

    test("conversation notifications update the workspace's log and emit support.conversation_updated; a redelivery is a duplicate", async () => {
      const p = await personas(t, `sup-log-${tag}`.toLowerCase());
      const ws = await workspaceIdOf(p.slug);
      const seen: WorkspaceEvent[] = [];
      const off = t.core.events!.subscribe(ws, (e) => seen.push(e));
      try {
        const created = notification("conversation.user.created", { id: "215", state: "open", title: "Export fails" }, {
          workspaceId: ws,
          at: 1_780_000_100,
        });
        const first = await deliver(created);
        expect(first.status).toBe(200);
        expect(first.body).toEqual({
          received: true,
          outcome: "processed",
          notification_id: created.id,
          topic: "conversation.user.created",
        });
        const again = await deliver(created);
        expect(again.body).toEqual({
          received: true,
          outcome: "duplicate",
          notification_id: created.id,
          topic: "conversation.user.created",
        });
        await deliver(notification("conversation.admin.closed", { id: "215", state: "closed" }, { workspaceId: ws, at: 1_780_000_200 }));
        await deliver(notification("conversation.user.created", { id: 216, state: "open" }, { workspaceId: ws, at: 1_780_000_150 }));

        const list = await t.call("GET", `/workspaces/${p.slug}/support/conversations`, { key: p.admin });
        expect(list.status).toBe(200);
        expect(list.body).toEqual({
          conversations: [
            {
              id: "215",
              state: "closed",
              title: "Export fails",
              last_topic: "conversation.admin.closed",
              events: 2,
              updated_at: new Date(1_780_000_200_000).toISOString(),
            },
            {
              id: "216",
              state: "open",
              title: null,
              last_topic: "conversation.user.created",
              events: 1,
              updated_at: new Date(1_780_000_150_000).toISOString(),
            },
          ],
          total: 2,
          has_more: false,
        });
        const updates = seen.filter((e) => e.type === "support.conversation_updated");
        expect(updates.map((e) => e.data)).toEqual([
          { conversation_id: "215", topic: "conversation.user.created", state: "open", title: "Export fails", events: 1 },
          { conversation_id: "215", topic: "conversation.admin.closed", state: "closed", title: "Export fails", events: 2 },
          { conversation_id: "216", topic: "conversation.user.created", state: "open", title: null, events: 1 },
        ]);
      } finally {
        off();
      }
    });

    test("20 notifications of one conversation at once: events 20", async () => {
      const p = await personas(t, `sup-many-${tag}`.toLowerCase());
      const ws = await workspaceIdOf(p.slug);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => deliver(notification("conversation.user.replied", { id: "900" }, { workspaceId: ws }))),
      );
      expect(results.map((r) => r.body.outcome)).toEqual(Array(20).fill("processed"));
      const list = await t.call("GET", `/workspaces/${p.slug}/support/conversations`, { key: p.owner });
      expect(list.body.conversations[0]).toMatchObject({ id: "900", events: 20, state: "open" });
    });

    test("the list: owner and admin only (member 403), paged with limit 1–200 (over is 400), another workspace 404", async () => {
      const p = await personas(t, `sup-list-${tag}`.toLowerCase());
      const ws = await workspaceIdOf(p.slug);
      for (let i = 0; i < 3; i++) {
        await deliver(notification("conversation.user.created", { id: `l${i}` }, { workspaceId: ws, at: 1_780_001_000 + i }));
      }
      const member = await t.call("GET", `/workspaces/${p.slug}/support/conversations`, { key: p.member });
      expect(member.status).toBe(403);
      const page = await t.call("GET", `/workspaces/${p.slug}/support/conversations?limit=2&offset=1`, { key: p.owner });
      expect(page.status).toBe(200);
      expect(page.body.conversations.map((c: { id: string }) => c.id)).toEqual(["l1", "l0"]);
      expect(page.body).toMatchObject({ total: 3, has_more: false });
      const first = await t.call("GET", `/workspaces/${p.slug}/support/conversations?limit=1`, { key: p.owner });
      expect(first.body).toMatchObject({ total: 3, has_more: true });
      expect((await t.call("GET", `/workspaces/${p.slug}/support/conversations?limit=201`, { key: p.owner })).status).toBe(400);
      expect((await t.call("GET", `/workspaces/${p.slug}/support/conversations?limit=0`, { key: p.owner })).status).toBe(400);
      const other = await personas(t, `sup-other-${tag}`.toLowerCase());
      expect((await t.call("GET", `/workspaces/${p.slug}/support/conversations`, { key: other.owner })).status).toBe(404);
      expect((await t.call("GET", `/workspaces/${p.slug}/support/conversations`)).status).toBe(401);
    });
  });
}
