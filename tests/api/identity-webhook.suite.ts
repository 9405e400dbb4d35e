import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createSession, receiveIdentityWebhook } from "../../core/identity/mod.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import { WEBHOOK_LEASE_MS } from "../../core/webhooks/mod.ts";
import { webhookSweep } from "../../workers/webhooks.ts";
import type { OidcProvider } from "../../core/identity/ports.ts";
import type { Stores } from "../../core/stores.ts";
import { standardWebhookSignature } from "../../core/webhooks/standard-webhooks.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const SECRET = `whsec_${btoa("identity-webhook-test-secret-0123")}`;
const ISSUER = "https://id.example.com";

/** A provider port that only names its issuer: the webhook needs no sign-in. */
const issuerOnly: OidcProvider = {
  issuer: ISSUER,
  start: () => Promise.reject(new Error("no sign-in in this test")),
  finish: () => Promise.reject(new Error("no sign-in in this test")),
};

/** `POST /webhooks/identity` over HTTP: signatures, redelivery, the three event types. */
export function runIdentityWebhookSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let n = 0;
    const deliver = async (
      event: unknown,
      opts: { id?: string; secret?: string; ts?: number; svix?: boolean; signature?: string } = {},
    ) => {
      const body = JSON.stringify(event);
      const id = opts.id ?? `msg_${name.replace(/\W/g, "")}_${++n}`;
      const ts = String(opts.ts ?? Math.floor(Date.now() / 1000));
      const sig = opts.signature ?? (await standardWebhookSignature(opts.secret ?? SECRET, id, ts, new TextEncoder().encode(body)));
      const p = opts.svix ? "svix" : "webhook";
      return t.call("POST", "/webhooks/identity", {
        rawBody: body,
        headers: { "content-type": "application/json", [`${p}-id`]: id, [`${p}-timestamp`]: ts, [`${p}-signature`]: sig },
      });
    };
    const person = async (email: string) => (await t.core.stores.identities.getByEmail(email))!;
    const cookieOf = async (identityId: string) => `wks_session=${(await createSession(t.core as never, identityId)).token}`;

    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), {
        identityWebhookSecret: SECRET,
        oidc: issuerOnly,
      });
    });

    test("unset secret: 404", async () => {
      const bare = await makeTestApp(undefined, { oidc: issuerOnly });
      const res = await bare.call("POST", "/webhooks/identity", { body: { type: "user.updated", data: {} } });
      expect(res.status).toBe(404);
    });

    test("a bad or missing signature, another secret, or a timestamp beyond 300 s: 401 INVALID_SIGNATURE, nothing changed", async () => {
      await t.bootstrap("idwh-sig", "idwh-sig@example.com");
      const event = {
        type: "user.updated",
        timestamp: new Date().toISOString(),
        data: { id: "sub-sig", email: "idwh-sig@example.com", name: "Changed" },
      };
      const other = `whsec_${btoa("another-secret-another-secret-012")}`;
      for (
        const res of [
          await deliver(event, { signature: "v1,AAAA" }),
          await deliver(event, { secret: other }),
          await deliver(event, { ts: Math.floor(Date.now() / 1000) - 301 }),
          await deliver(event, { ts: Math.floor(Date.now() / 1000) + 301 }),
          await t.call("POST", "/webhooks/identity", { body: event }),
        ]
      ) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("INVALID_SIGNATURE");
      }
      expect((await person("idwh-sig@example.com")).name).toBeNull();
      expect(await t.core.stores.identityLinks.get(ISSUER, "sub-sig")).toBeNull();
    });

    test("user.updated: found by e-mail the first time (then linked), by subject after; a redelivery is a duplicate", async () => {
      await t.bootstrap("idwh-upd", "idwh-upd@example.com");
      const id = (await person("idwh-upd@example.com")).id;
      const first = await deliver({ type: "user.updated", data: { id: "sub-upd", email: "idwh-upd@example.com", name: "Ada" } }, {
        id: "msg_upd_1",
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: "applied", type: "user.updated" });
      expect((await t.core.stores.identities.getById(id))?.name).toBe("Ada");
      expect((await t.core.stores.identityLinks.get(ISSUER, "sub-upd"))?.identity_id).toBe(id);

      const moved = await deliver({ type: "user.updated", data: { id: "sub-upd", email: "idwh-upd-new@example.com", name: "Ada L." } }, {
        svix: true,
      });
      expect(moved.body.status).toBe("applied");
      expect(await t.core.stores.identities.getById(id)).toMatchObject({ email: "idwh-upd-new@example.com", name: "Ada L." });

      const again = await deliver({ type: "user.updated", data: { id: "sub-upd", name: "Replayed" } }, { id: "msg_upd_1" });
      expect(again.status).toBe(200);
      expect(again.body.status).toBe("duplicate");
      expect((await t.core.stores.identities.getById(id))?.name).toBe("Ada L.");
    });

    test("user.updated: found by previous_email; another person's e-mail is a 409 and changes nothing", async () => {
      await t.bootstrap("idwh-prev", "idwh-prev@example.com");
      await t.bootstrap("idwh-taken", "idwh-taken@example.com");
      const res = await deliver({
        type: "user.updated",
        data: { id: "sub-prev", previous_email: "idwh-prev@example.com", email: "idwh-taken@example.com", name: "P" },
      });
      expect(res.status).toBe(409);
      expect((await person("idwh-prev@example.com")).name).toBeNull();
      // Released: a corrected delivery under a new id applies.
      const ok = await deliver({ type: "user.updated", data: { id: "sub-prev", previous_email: "idwh-prev@example.com", name: "P" } });
      expect(ok.body.status).toBe("applied");
    });

    test("session.revoked ends the person's sessions; an unknown subject or another type is ignored", async () => {
      await t.bootstrap("idwh-sess", "idwh-sess@example.com");
      const me = await person("idwh-sess@example.com");
      await deliver({ type: "user.updated", data: { id: "sub-sess", email: me.email } });
      const cookie = await cookieOf(me.id);
      expect((await t.call("GET", "/me", { headers: { cookie } })).status).toBe(200);
      const res = await deliver({ type: "session.revoked", data: { user_id: "sub-sess" } });
      expect(res.body).toEqual({ status: "applied", type: "session.revoked" });
      expect((await t.call("GET", "/me", { headers: { cookie } })).status).toBe(401);
      expect((await deliver({ type: "session.revoked", data: { user_id: "nobody" } })).body.status).toBe("ignored");
      expect((await deliver({ type: "organization.created", data: {} })).body).toEqual({ status: "ignored", type: "organization.created" });
    });

    test("user.deleted: sessions and personal API keys stop at once, sign-in is refused, memberships stay", async () => {
      const owner = await t.bootstrap("idwh-del", "idwh-del-owner@example.com");
      const added = await t.call("POST", "/workspaces/idwh-del/members", {
        key: owner.key,
        body: { email: "idwh-del@example.com", role: "member" },
      });
      expect(added.status).toBe(201);
      const key = await t.call("POST", "/workspaces/idwh-del/api-keys", {
        key: owner.key,
        body: { member_id: added.body.id, name: "mine" },
      });
      const me = await person("idwh-del@example.com");
      const cookie = await cookieOf(me.id);
      expect((await t.call("GET", "/me", { key: key.body.key })).status).toBe(200);

      const res = await deliver({ type: "user.deleted", data: { id: "sub-del", email: "idwh-del@example.com" } });
      expect(res.body).toEqual({ status: "applied", type: "user.deleted" });
      expect((await t.call("GET", "/me", { key: key.body.key })).status).toBe(401);
      expect((await t.call("GET", "/me", { headers: { cookie } })).status).toBe(401);
      expect((await t.core.stores.identityLinks.get(ISSUER, "sub-del"))?.deactivated_at).not.toBeNull();
      const ws = await t.core.stores.workspaces.getBySlug("idwh-del");
      expect((await t.core.stores.members.findByIdentity(ws!.id, me.id))?.role).toBe("member");
      // The owner's own key is untouched.
      expect((await t.call("GET", "/me", { key: owner.key })).status).toBe(200);
    });

    test("ordering: a user.updated older (timestamp) than the last applied to the person is stale, nothing changed; user.deleted is final", async () => {
      await t.bootstrap("idwh-ord", "idwh-ord@example.com");
      const id = (await person("idwh-ord@example.com")).id;
      const at = (s: number) => new Date(Date.UTC(2031, 0, 1, 0, 0, s)).toISOString();
      const update = (name: string, s: number) =>
        deliver({ type: "user.updated", timestamp: at(s), data: { id: "sub-ord", email: "idwh-ord@example.com", name } });
      expect((await update("Newer", 20)).body).toEqual({ status: "applied", type: "user.updated" });
      // The older one arrives late: 200 stale, the newer name stays.
      const late = await update("Older", 10);
      expect(late.status).toBe(200);
      expect(late.body).toEqual({ status: "stale", type: "user.updated" });
      expect((await t.core.stores.identities.getById(id))?.name).toBe("Newer");
      expect((await update("Newest", 30)).body.status).toBe("applied");
      expect((await t.core.stores.identities.getById(id))?.name).toBe("Newest");
      // A deletion applies whatever its time; an update older than it is then stale.
      expect((await deliver({ type: "user.deleted", timestamp: at(40), data: { id: "sub-ord" } })).body.status).toBe("applied");
      expect((await t.core.stores.identityLinks.get(ISSUER, "sub-ord"))?.deactivated_at).not.toBeNull();
      expect((await update("Before deletion", 35)).body.status).toBe("stale");
      expect((await t.core.stores.identities.getById(id))?.name).toBe("Newest");
      // A timestamp that is no date-time: 400.
      const bad = await deliver({ type: "user.updated", timestamp: "yesterday", data: { id: "sub-ord", name: "X" } });
      expect(bad.status).toBe(400);
    });

    /**
     * Runs the receiver as a request that recorded the delivery `agoMs` ago and then died before
     * applying it: its effect never happens and it neither releases nor marks the delivery.
     */
    async function crashAfterRecording(id: string, event: unknown, agoMs: number) {
      const clock = fixedClock(new Date(Date.now() - agoMs));
      const crash = new Error("the process died");
      // The store as the dying process saw it: the effect's write never returns, nothing is given back.
      const replace = <T extends object>(real: T, method: string, fn: () => Promise<unknown>): T =>
        new Proxy(real, { get: (o, k) => (k === method ? fn : (Reflect.get(o, k) as (...a: unknown[]) => unknown).bind(o)) });
      const stores = new Proxy(t.core.stores, {
        get(target, key) {
          const real = Reflect.get(target, key);
          if (key === "identities") return replace(real, "update", () => Promise.reject(crash));
          if (key === "webhookDeliveries") return replace(real, "release", () => Promise.resolve());
          return real;
        },
      });
      const body = new TextEncoder().encode(JSON.stringify(event));
      const ts = String(Math.floor(clock.now().getTime() / 1000));
      const signature = await standardWebhookSignature(SECRET, id, ts, body);
      const died = await receiveIdentityWebhook({ ...t.core, stores, clock }, SECRET, ISSUER, { id, timestamp: ts, signature, body }).then(
        () => null,
        (e) => e,
      );
      expect(died).toBe(crash);
    }

    test("a crash between recording and applying: the redelivery after the lease applies it once, then duplicate", async () => {
      await t.bootstrap("idwh-crash", "idwh-crash@example.com");
      const me = await person("idwh-crash@example.com");
      await deliver({ type: "user.updated", data: { id: "sub-crash", email: me.email } });
      const event = { type: "user.updated", timestamp: new Date().toISOString(), data: { id: "sub-crash", name: "Recovered" } };
      await crashAfterRecording("msg_crash_1", event, WEBHOOK_LEASE_MS + 5_000);
      expect((await t.core.stores.identities.getById(me.id))?.name).toBeNull();
      expect((await t.core.stores.webhookDeliveries.get("identity", "msg_crash_1"))?.state).toBe("received");
      const redelivered = await deliver(event, { id: "msg_crash_1" });
      expect(redelivered.body).toEqual({ status: "applied", type: "user.updated" });
      expect((await t.core.stores.identities.getById(me.id))?.name).toBe("Recovered");
      expect((await deliver(event, { id: "msg_crash_1" })).body.status).toBe("duplicate");
    });

    test("a crash between recording and applying: the recovery sweep applies it once; its redelivery is then a duplicate", async () => {
      await t.bootstrap("idwh-sweep", "idwh-sweep@example.com");
      const me = await person("idwh-sweep@example.com");
      await deliver({ type: "user.updated", data: { id: "sub-sweep", email: me.email } });
      const event = { type: "user.updated", timestamp: new Date().toISOString(), data: { id: "sub-sweep", name: "Swept" } };
      await crashAfterRecording("msg_sweep_1", event, WEBHOOK_LEASE_MS + 5_000);
      // (The 409 delivery of another test is unfinished too, and fails again: left to its retries.)
      const failures: unknown[] = [];
      await webhookSweep(t.core, (_msg, fields) => failures.push(fields.delivery_id));
      expect(failures).not.toContain("msg_sweep_1");
      expect((await t.core.stores.identities.getById(me.id))?.name).toBe("Swept");
      expect(await t.core.stores.webhookDeliveries.get("identity", "msg_sweep_1")).toMatchObject({ state: "applied", outcome: "applied" });
      expect((await deliver(event, { id: "msg_sweep_1" })).body.status).toBe("duplicate");
    });

    test("a malformed event: 400, nothing recorded", async () => {
      const res = await deliver({ type: "user.updated", data: { email: "no-id@example.com" } }, { id: "msg_bad" });
      expect(res.status).toBe(400);
      await t.bootstrap("idwh-bad", "no-id@example.com");
      const ok = await deliver({ type: "user.updated", data: { id: "sub-bad", email: "no-id@example.com", name: "B" } }, { id: "msg_bad" });
      expect(ok.body.status).toBe("applied");
    });
  });
}
