import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { stripeBillingProvider } from "../../adapters/stripe/billing-provider.ts";
import type { Stores } from "../../core/stores.ts";
import { stripeSignatureHeader } from "../../core/webhooks/stripe-signature.ts";
import { personas } from "../support/personas.ts";
import { startStripeMock, type StripeMock } from "../support/stripe-mock.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const SECRET = "whsec_billing_webhook_test_secret_0123";
const URLS = { success_url: "https://app.example.com/billing/ok", cancel_url: "https://app.example.com/billing/cancel" };

/**
 * Checkout, portal and `POST /webhooks/billing` over HTTP (docs/decisions/033-billing-provider-and-webhook.md):
 * without a provider (503), with the Stripe adapter against stripe-mock, and the webhook with
 * signatures computed here.
 */
export function runBillingSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let plain: TestApp; // no provider; webhook on
    let paid: TestApp; // Stripe (stripe-mock); webhook on
    let off: TestApp; // no provider, no webhook secret
    let mock: StripeMock;
    let n = 0;
    const slug = (s: string) => `${s}-${name.replace(/\W/g, "").slice(-6)}-${++n}`;
    beforeAll(async () => {
      const stores = await open();
      mock = await startStripeMock();
      plain = await makeTestApp(stores, { billingWebhookSecret: SECRET });
      off = await makeTestApp(stores);
      paid = await makeTestApp(stores, {
        billingWebhookSecret: SECRET,
        core: { billingProvider: stripeBillingProvider({ secretKey: "sk_test_123", apiBase: mock.url }) },
      });
    }, 180_000);
    afterAll(async () => {
      await mock?.stop();
    });

    const deliver = async (
      t: TestApp,
      event: { id?: string; type: string; created?: number; object: Record<string, unknown> },
      opts: { signature?: string | null; ts?: number; secret?: string } = {},
    ) => {
      const body = JSON.stringify({
        id: event.id ?? `evt_${crypto.randomUUID()}`,
        object: "event",
        type: event.type,
        created: event.created ?? Math.floor(Date.now() / 1000),
        data: { object: event.object },
      });
      const sig = opts.signature !== undefined
        ? opts.signature
        : await stripeSignatureHeader(opts.secret ?? SECRET, opts.ts ?? Math.floor(Date.now() / 1000), new TextEncoder().encode(body));
      return t.call("POST", "/webhooks/billing", {
        rawBody: body,
        headers: { "content-type": "application/json", ...(sig === null ? {} : { "billing-signature": sig }) },
      });
    };
    const usage = async (t: TestApp, s: string, key: string) => (await t.call("GET", `/workspaces/${s}/commercial-usage`, { key })).body;
    const wsId = async (t: TestApp, s: string, key: string) => (await t.call("GET", `/workspaces/${s}`, { key })).body.id as string;
    const completed = (workspaceId: string, meta: Record<string, string>, extra: Record<string, unknown> = {}) => ({
      type: "checkout.session.completed",
      object: {
        id: `cs_${crypto.randomUUID()}`,
        object: "checkout.session",
        client_reference_id: workspaceId,
        customer: `cus_${workspaceId}`,
        subscription: meta.kind === "subscription" ? `sub_${workspaceId}` : null,
        payment_status: "paid",
        metadata: { workspace_id: workspaceId, ...meta },
        ...extra,
      },
    });

    test("without a provider: checkout and portal are 503 BILLING_NOT_CONFIGURED after the credential (401), role (403) and body (400) checks; PATCH /plan switches", async () => {
      const p = await personas(plain, slug("nop"));
      const path = `/workspaces/${p.slug}/billing/checkout-session`;
      expect((await plain.call("POST", path, { body: { ...URLS, plan: "team" } })).status).toBe(401);
      expect((await plain.call("POST", path, { key: p.member, body: { ...URLS, plan: "team" } })).body.error.code).toBe("FORBIDDEN");
      for (
        const bad of [
          { ...URLS, plan: "team", credits: 100 },
          { ...URLS, credits: 99 },
          { ...URLS },
          { ...URLS, plan: "enterprise" },
          { ...URLS, credits: 100, interval: "year" },
          { ...URLS, plan: "team", extra: 1 },
          { success_url: "x", cancel_url: URLS.cancel_url, plan: "team" },
        ]
      ) {
        const r = await plain.call("POST", path, { key: p.admin, body: bad });
        expect([r.status, r.body.error.code]).toEqual([400, "VALIDATION_FAILED"]);
      }
      const r = await plain.call("POST", path, { key: p.admin, body: { ...URLS, plan: "business", interval: "year" } });
      expect([r.status, r.body.error.code]).toEqual([503, "BILLING_NOT_CONFIGURED"]);
      const portal = `/workspaces/${p.slug}/billing/portal-session`;
      expect((await plain.call("POST", portal, { key: p.member, body: {} })).status).toBe(403);
      expect((await plain.call("POST", portal, { key: p.owner, body: { return_url: 5 } })).status).toBe(400);
      expect((await plain.call("POST", portal, { key: p.owner, body: {} })).status).toBe(503);
      expect((await plain.call("PATCH", `/workspaces/${p.slug}/plan`, { key: p.owner, body: { plan: "team" } })).body.plan).toBe("team");
    });

    test("with Stripe: checkout opens a session (201, Idempotency-Key replayed), records one customer; portal 409 NO_BILLING_ACCOUNT before, 201 after; PATCH /plan 409", async () => {
      const p = await personas(paid, slug("str"));
      const portal = `/workspaces/${p.slug}/billing/portal-session`;
      expect((await paid.call("POST", portal, { key: p.owner, body: {} })).body.error.code).toBe("NO_BILLING_ACCOUNT");
      const path = `/workspaces/${p.slug}/billing/checkout-session`;
      const headers = { "idempotency-key": "checkout-1" };
      const first = await paid.call("POST", path, { key: p.owner, headers, body: { ...URLS, plan: "team" } });
      expect(first.status).toBe(201);
      expect(Object.keys(first.body).sort()).toEqual(["expires_at", "id", "url"]);
      expect(first.body.id).toMatch(/^cs_/);
      const again = await paid.call("POST", path, { key: p.owner, headers, body: { ...URLS, plan: "team" } });
      expect([again.status, again.headers.get("idempotent-replayed"), again.body]).toEqual([201, "true", first.body]);
      expect((await paid.call("POST", path, { key: p.owner, headers, body: { ...URLS, credits: 500 } })).body.error.code).toBe(
        "IDEMPOTENCY_KEY_REUSED",
      );
      const account = await paid.core.stores.billingAccounts.get(await wsId(paid, p.slug, p.owner));
      expect(account!.customer_id).toMatch(/^cus_/);
      const credits = await paid.call("POST", path, { key: p.admin, body: { ...URLS, credits: 1_000_000 } });
      expect(credits.status).toBe(201);
      expect((await paid.core.stores.billingAccounts.get(account!.workspace_id))!.customer_id).toBe(account!.customer_id);
      const opened = await paid.call("POST", portal, { key: p.admin, body: { return_url: "https://app.example.com/billing" } });
      expect([opened.status, typeof opened.body.url]).toEqual([201, "string"]);
      const plan = await paid.call("PATCH", `/workspaces/${p.slug}/plan`, { key: p.owner, body: { plan: "team" } });
      expect(plan.body.error.code).toBe("PLAN_CHANGE_NOT_ALLOWED");
      expect((await paid.call("PATCH", `/workspaces/${p.slug}/plan`, { key: p.owner, body: { plan: "free" } })).status).toBe(200);
    });

    test("webhook: 404 without its secret; missing, wrong, expired signatures 401 with nothing changed; any of several v1 may match; another signed body 400", async () => {
      const { slug: s, key } = await plain.bootstrap(slug("sig"));
      const id = await wsId(plain, s, key);
      const ev = completed(id, { kind: "subscription", plan: "team" });
      expect((await deliver(off, ev)).status).toBe(404);
      for (const signature of [null, "garbage", `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`]) {
        const r = await deliver(plain, ev, { signature });
        expect([r.status, r.body.error.code]).toEqual([401, "INVALID_SIGNATURE"]);
      }
      expect((await deliver(plain, ev, { secret: "whsec_other" })).status).toBe(401);
      expect((await deliver(plain, ev, { ts: Math.floor(Date.now() / 1000) - 301 })).status).toBe(401);
      expect((await usage(plain, s, key)).plan).toBe("free");
      // Several v1 (a secret being rolled): one matching is enough.
      const body = JSON.stringify({ id: "evt_multi_" + id, type: "ping.other", created: 1, data: { object: {} } });
      const t = Math.floor(Date.now() / 1000);
      const good = (await stripeSignatureHeader(SECRET, t, new TextEncoder().encode(body))).split(",")[1];
      const multi = await plain.call("POST", "/webhooks/billing", {
        rawBody: body,
        headers: { "content-type": "application/json", "billing-signature": `t=${t},v1=${"a".repeat(64)},${good}` },
      });
      expect(multi.body).toEqual({ received: true, event_id: "evt_multi_" + id, type: "ping.other", outcome: "ignored" });
      const notEvent = JSON.stringify({ hello: "world" });
      const r = await plain.call("POST", "/webhooks/billing", {
        rawBody: notEvent,
        headers: { "billing-signature": await stripeSignatureHeader(SECRET, t, new TextEncoder().encode(notEvent)) },
      });
      expect([r.status, r.body.error.code]).toEqual([400, "VALIDATION_FAILED"]);
    });

    test("webhook: a subscription checkout sets the plan, the account and the included credits; a redelivery is duplicate; unpaid waits for async_payment_succeeded", async () => {
      const { slug: s, key } = await plain.bootstrap(slug("sub"));
      const id = await wsId(plain, s, key);
      const unpaid = completed(id, { kind: "subscription", plan: "team" }, { payment_status: "unpaid" });
      expect((await deliver(plain, unpaid)).body.outcome).toBe("ignored");
      expect((await usage(plain, s, key)).plan).toBe("free");
      const ev = { ...completed(id, { kind: "subscription", plan: "team" }), id: `evt_sub_${id}` };
      const r = await deliver(plain, ev);
      expect(r.body).toEqual({ received: true, event_id: ev.id, type: "checkout.session.completed", outcome: "processed" });
      const u = await usage(plain, s, key);
      expect(u.plan).toBe("team");
      expect(u.billing.status).toBe("active");
      expect(u.usage.radar_credits).toMatchObject({ included: 2_000, balance: 2_000 });
      expect((await deliver(plain, ev)).body.outcome).toBe("duplicate");
      expect((await usage(plain, s, key)).usage.radar_credits.balance).toBe(2_000);
      const account = (await plain.core.stores.billingAccounts.get(id))!;
      expect(account).toMatchObject({ customer_id: `cus_${id}`, subscription_id: `sub_${id}`, status: "active", plan: "team" });
      // A delayed payment method: completed unpaid, then the async success applies it.
      const other = await plain.bootstrap(slug("async"));
      const oid = await wsId(plain, other.slug, other.key);
      const later = completed(oid, { kind: "subscription", plan: "business" }, { payment_status: "unpaid", client_reference_id: null });
      expect((await deliver(plain, later)).body.outcome).toBe("ignored");
      const succeeded = await deliver(plain, {
        ...later,
        type: "checkout.session.async_payment_succeeded",
        object: { ...later.object, payment_status: "paid" },
      });
      expect(succeeded.body.outcome).toBe("processed");
      expect((await usage(plain, other.slug, other.key)).plan).toBe("business");
    });

    test("webhook: a credits checkout grants them once through the ledger; unknown workspaces and other types are ignored", async () => {
      const { slug: s, key } = await plain.bootstrap(slug("cred"));
      const id = await wsId(plain, s, key);
      const ev = { ...completed(id, { kind: "credits", credits: "500" }), id: `evt_cred_${id}` };
      expect((await deliver(plain, ev)).body.outcome).toBe("processed");
      expect((await deliver(plain, ev)).body.outcome).toBe("duplicate");
      const u = await usage(plain, s, key);
      expect([u.plan, u.usage.radar_credits.balance, u.usage.radar_credits.included]).toEqual(["free", 500, 0]);
      const ghost = completed("0190aaaa-0000-7000-8000-000000000000", { kind: "credits", credits: "500" });
      expect((await deliver(plain, ghost)).body.outcome).toBe("ignored");
      expect((await deliver(plain, { type: "charge.refunded", object: { id: "ch_1" } })).body.outcome).toBe("ignored");
    });

    test("webhook: concurrent subscription updates leave the newest event's plan, whatever order they land in (ADR 042)", async () => {
      const { slug: s, key } = await plain.bootstrap(slug("race"));
      const id = await wsId(plain, s, key);
      const t0 = Math.floor(Date.now() / 1000) - 1_000;
      const sub = (plan: string, created: number) => ({
        type: "customer.subscription.updated",
        created,
        object: {
          id: `sub_${id}`,
          object: "subscription",
          customer: `cus_${id}`,
          status: "active",
          metadata: { workspace_id: id, kind: "subscription", plan },
        },
      });
      for (let round = 0; round < 4; round++) {
        // Six events of distinct times; the newest names `last`, the others alternate.
        const last = round % 2 === 0 ? "team" : "business";
        const base = t0 + round * 100;
        const events = Array.from({ length: 6 }, (_, i) => sub(i === 5 ? last : i % 2 === 0 ? "business" : "team", base + i));
        const answers = await Promise.all((round < 2 ? events : events.reverse()).map((e) => deliver(plain, e)));
        expect(answers.filter((a) => a.status !== 200).map((a) => JSON.stringify(a.body))).toEqual([]);
        expect((await usage(plain, s, key)).plan).toBe(last);
        expect((await plain.core.stores.billingAccounts.get(id))?.last_event_created).toBe(base + 5);
      }
    });

    test("webhook: subscription updates (upgrade grants the difference; past_due keeps the plan; stale ignored), invoices, deletion to free; enterprise untouched", async () => {
      const { slug: s, key } = await plain.bootstrap(slug("upd"));
      const id = await wsId(plain, s, key);
      const t0 = Math.floor(Date.now() / 1000) - 100;
      expect((await deliver(plain, { ...completed(id, { kind: "subscription", plan: "team" }), created: t0 })).body.outcome).toBe(
        "processed",
      );
      const sub = (status: string, plan: string, created: number, type = "customer.subscription.updated") => ({
        type,
        created,
        object: {
          id: `sub_${id}`,
          object: "subscription",
          customer: `cus_${id}`,
          status,
          metadata: { workspace_id: id, kind: "subscription", plan },
        },
      });
      expect((await deliver(plain, sub("active", "business", t0 + 10))).body.outcome).toBe("processed");
      let u = await usage(plain, s, key);
      expect([u.plan, u.usage.radar_credits.included, u.usage.radar_credits.balance]).toEqual(["business", 10_000, 10_000]);
      // Older than the last applied: stale, nothing changed.
      expect((await deliver(plain, sub("active", "team", t0 + 5))).body.outcome).toBe("stale");
      expect((await usage(plain, s, key)).plan).toBe("business");
      expect((await deliver(plain, sub("past_due", "business", t0 + 20))).body.outcome).toBe("processed");
      u = await usage(plain, s, key);
      expect([u.plan, u.billing.status]).toEqual(["business", "past_due"]);
      const invoice = (type: string, created: number, customer = `cus_${id}`) => ({
        type,
        created,
        object: { id: `in_${created}`, object: "invoice", customer },
      });
      expect((await deliver(plain, invoice("invoice.paid", t0 + 30))).body.outcome).toBe("processed");
      expect((await usage(plain, s, key)).billing.status).toBe("active");
      expect((await deliver(plain, invoice("invoice.payment_failed", t0 + 40))).body.outcome).toBe("processed");
      expect((await usage(plain, s, key)).billing.status).toBe("past_due");
      expect((await deliver(plain, invoice("invoice.paid", t0 + 1, "cus_nobody"))).body.outcome).toBe("ignored");
      expect((await deliver(plain, sub("canceled", "business", t0 + 50, "customer.subscription.deleted"))).body.outcome).toBe("processed");
      u = await usage(plain, s, key);
      expect([u.plan, u.billing.status]).toEqual(["free", "canceled"]);
      expect(u.usage.radar_credits.balance).toBe(10_000); // grants roll over
      // Enterprise: no billing event changes it.
      const ws = (await plain.core.stores.workspaces.getById(id))!;
      await plain.core.stores.workspaces.update({ ...ws, plan: "enterprise" });
      expect((await deliver(plain, sub("active", "team", t0 + 60))).body.outcome).toBe("ignored");
      expect((await deliver(plain, completed(id, { kind: "subscription", plan: "team" }))).body.outcome).toBe("ignored");
      expect((await usage(plain, s, key)).plan).toBe("enterprise");
    });
  });
}
