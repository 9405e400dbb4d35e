import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryEventBus } from "../../adapters/memory/event-bus.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { createOutboxMailer } from "../../adapters/mail/nodemailer.ts";
import type { WorkspaceEvent } from "../../core/events/event.ts";
import { mailHooks } from "../../core/mail/hooks.ts";
import type { Stores } from "../../core/stores.ts";
import { jobRunner } from "../../workers/registry.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, TEST_SECRET, type TestApp } from "../support/test-app.ts";

export const OPERATOR = "operator-key-operator-key-operator-key-0123";
const price = { amount: 4_000, currency: "eur", interval: "month" };

/** The operator's billing administration and the workspace's offers over HTTP (ADR 034), run on each store. */
export function runPlatformBillingApiSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    let wsId: string;
    let outbox: string;
    const events: WorkspaceEvent[] = [];
    const queue = createMemoryJobQueue(() => {});
    const slug = `pb-${Math.random().toString(36).slice(2, 8)}`;
    const op = (method: string, path: string, body?: unknown) => t.call(method, `/platform/billing${path}`, { key: OPERATOR, body });

    beforeAll(async () => {
      outbox = mkdtempSync(join(tmpdir(), "outbox-"));
      const bus = createMemoryEventBus();
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), {
        events: bus,
        platformAdminKey: OPERATOR,
        core: {
          jobs: queue,
          mail: { mailer: createOutboxMailer(outbox, "KB <kb@example.com>"), publicUrl: "https://kb.example.com", secret: TEST_SECRET },
          ...mailHooks,
        },
      });
      queue.consume(jobRunner(() => t.core));
      p = await personas(t, slug);
      wsId = (await t.call("GET", `/workspaces/${slug}`, { key: p.owner })).body.id;
      bus.subscribe(wsId, (e) => void events.push(e));
    });
    afterAll(async () => {
      await queue.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    const offer = (over: Record<string, unknown> = {}) =>
      op("POST", "/offers", { workspace_id: wsId, plan: "team", price, term_months: 12, ...over });

    test("/platform/**: no key and a wrong key are 401, a workspace's owner key 403, the operator key 200", async () => {
      expect((await t.call("GET", "/platform/billing/plans")).status).toBe(401);
      expect((await t.call("GET", "/platform/billing/plans", { key: "wrong-wrong-wrong-wrong-wrong-wrong-wrong" })).status).toBe(401);
      const owner = await t.call("POST", "/platform/billing/offers", { key: p.owner, body: { nonsense: true } });
      expect(owner.status).toBe(403);
      expect(owner.body.error.code).toBe("FORBIDDEN");
      expect((await op("GET", "/plans")).status).toBe(200);
    });

    test("GET /platform/billing/plans lists the catalogue with prices per month and year", async () => {
      const res = await op("GET", "/plans");
      expect(res.body.plans.map((x: { id: string }) => x.id)).toEqual(["free", "team", "business", "enterprise"]);
      expect(res.body.plans[1]).toEqual({
        id: "team",
        name: "Team",
        self_serve: true,
        price: { currency: "eur", month: 4_900, year: 49_000 },
        limits: { members: 25, topics: 25_000, collections: 50, records: 250_000, radar_credits_monthly: 2_000 },
      });
      expect(res.body.plans[3]).toMatchObject({ id: "enterprise", self_serve: false, price: null });
    });

    test("GET /platform/billing/workspaces: newest first, q on slug or name, plan filter, usage and paging", async () => {
      const other = await t.bootstrap(`${slug}-newer`);
      const res = await op("GET", `/workspaces?q=${slug}&limit=1`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(res.body.has_more).toBe(true);
      expect(res.body.workspaces[0]).toMatchObject({
        slug: other.slug,
        plan: "free",
        billing: { status: "none", current_period_end: null },
        usage: { members: { used: 1, limit: 5 } },
        over_limit: [],
        contract: null,
        renewal_due: false,
      });
      const second = await op("GET", `/workspaces?q=${slug.toUpperCase()}&limit=1&offset=1`);
      expect(second.body.workspaces[0]).toMatchObject({ id: wsId, usage: { members: { used: 3 } } });
      expect((await op("GET", `/workspaces?q=${slug}&plan=team`)).body.total).toBe(0);
      expect((await op("GET", "/workspaces?limit=201")).status).toBe(400);
      expect((await op("GET", "/workspaces?plan=gold")).status).toBe(400);
    });

    test("POST /platform/billing/offers: 201 open revision 1, default expiry 30 days; strict body; unknown workspace 404; owners mailed", async () => {
      const res = await offer({ radar_credits: 500, note: "Welcome" });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        workspace_id: wsId,
        plan: "team",
        status: "open",
        revision: 1,
        supersedes: null,
        superseded_by: null,
        radar_credits: 500,
        limits: null,
      });
      const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThan(30.1);
      expect((await offer({ extra: 1 })).status).toBe(400);
      expect((await offer({ limits: { members: 3 } })).status).toBe(400); // limits: enterprise only
      expect((await offer({ term_months: 61 })).status).toBe(400);
      expect((await offer({ expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() })).status).toBe(400);
      expect((await offer({ price: { ...price, currency: "usd" } })).status).toBe(400);
      expect((await offer({ workspace_id: "0190a0a0-0000-7000-8000-000000000000" })).status).toBe(404);
      await queue.drain();
      const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), "utf8"));
      const toOwner = mails.filter((m) => m.includes(res.body.id));
      expect(toOwner).toHaveLength(1);
      expect(toOwner[0]).toMatch(/^Subject: An offer for .*: Team plan$/m);
      expect(toOwner[0]).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    });

    test("GET offers (operator and workspace), cancel 201 then 409; the workspace's list is owner/admin only", async () => {
      const a = (await offer()).body;
      expect((await op("GET", `/offers/${a.id}`)).body).toMatchObject({ id: a.id, status: "open" });
      expect((await op("GET", "/offers/0190a0a0-0000-7000-8000-000000000000")).status).toBe(404);
      const listed = await op("GET", `/offers?workspace_id=${wsId}&status=open`);
      expect(listed.body.offers.map((o: { id: string }) => o.id)).toContain(a.id);
      const cancelled = await op("POST", `/offers/${a.id}/cancel`);
      expect(cancelled.status).toBe(201);
      expect(cancelled.body).toMatchObject({ status: "cancelled" });
      const again = await op("POST", `/offers/${a.id}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("CONFLICT");
      expect((await op("POST", `/offers/${a.id}/reissue`, {})).status).toBe(409);
      const mine = await t.call("GET", `/workspaces/${slug}/billing/offers?status=cancelled`, { key: p.admin });
      expect(mine.status).toBe(200);
      expect(mine.body.offers.map((o: { id: string }) => o.id)).toContain(a.id);
      expect((await t.call("GET", `/workspaces/${slug}/billing/offers`, { key: p.member })).status).toBe(403);
    });

    test("reissue: 201 a new open offer revision 2 superseding the old; of two concurrent reissues one is 201, the other 409", async () => {
      const a = (await offer({ radar_credits: 100 })).body;
      const [r1, r2] = await Promise.all([
        op("POST", `/offers/${a.id}/reissue`, { term_months: 24 }),
        op("POST", `/offers/${a.id}/reissue`, { term_months: 36 }),
      ]);
      expect([r1.status, r2.status].sort()).toEqual([201, 409]);
      const won = r1.status === 201 ? r1.body : r2.body;
      expect(won).toMatchObject({ status: "open", revision: 2, supersedes: a.id, radar_credits: 100, plan: "team" });
      expect((await op("GET", `/offers/${a.id}`)).body).toMatchObject({ status: "superseded", superseded_by: won.id });
      expect((await op("POST", `/offers/${won.id}/reissue`, { workspace_id: wsId })).status).toBe(400);
    });

    test("accept: owner only, 201 with plan, limits, credits once; a second accept 409; plan_changed source offer", async () => {
      const a = (await offer({ plan: "enterprise", limits: { members: 50, radar_credits_monthly: 200 }, radar_credits: 1_000 })).body;
      expect((await t.call("POST", `/workspaces/${slug}/billing/offers/${a.id}/accept`, { key: p.admin })).status).toBe(403);
      const res = await t.call("POST", `/workspaces/${slug}/billing/offers/${a.id}/accept`, { key: p.owner });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        offer: { id: a.id, status: "accepted" },
        workspace: { plan: "enterprise" },
        limits: { members: 50, topics: null, radar_credits_monthly: 200 },
        credits_granted: { offer: 1_000, included: 200 },
        contract: { plan: "enterprise", source: "offer", offer_id: a.id, renewal_due: false },
      });
      const again = await t.call("POST", `/workspaces/${slug}/billing/offers/${a.id}/accept`, { key: p.owner });
      expect(again.status).toBe(409);
      const credits = await t.call("GET", `/workspaces/${slug}/radar/credits`, { key: p.owner });
      expect(credits.body.balance).toBe(1_200);
      const usage = await t.call("GET", `/workspaces/${slug}/commercial-usage`, { key: p.member });
      expect(usage.body).toMatchObject({
        plan: "enterprise",
        limits: { members: 50, topics: null },
        usage: { members: { used: 3, limit: 50 } },
      });
      expect(events.some((e) => e.type === "workspace.plan_changed" && (e as any).data?.source === "offer")).toBe(true);
      const listed = await op("GET", `/workspaces?q=${slug}&plan=enterprise`);
      expect(listed.body.workspaces[0]).toMatchObject({ id: wsId, contract: { offer_id: a.id }, usage: { members: { limit: 50 } } });
    });

    test("enterprise endpoint: 201 plan enterprise with its limits at once; DELETE back to free, then 409", async () => {
      const other = await t.bootstrap(`${slug}-ent`);
      const id = other.body.workspace.id;
      const body = {
        limits: { members: 2, topics: 10 },
        price: { amount: 120_000, currency: "eur", interval: "year" },
        term_months: 12,
        note: "Pilot",
      };
      expect((await op("POST", `/workspaces/${id}/enterprise`, { ...body, extra: 1 })).status).toBe(400);
      expect((await op("POST", "/workspaces/0190a0a0-0000-7000-8000-000000000000/enterprise", body)).status).toBe(404);
      const res = await op("POST", `/workspaces/${id}/enterprise`, body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        workspace: { plan: "enterprise" },
        limits: { members: 2, topics: 10, collections: null, radar_credits_monthly: 0 },
      });
      expect(res.body.contract).toMatchObject({ term_months: 12, note: "Pilot", renewal_due: false, source: "operator" });
      const usage = await t.call("GET", `/workspaces/${other.slug}/commercial-usage`, { key: other.key });
      expect(usage.body).toMatchObject({ plan: "enterprise", limits: { members: 2, topics: 10 } });
      const ended = await op("DELETE", `/workspaces/${id}/enterprise`);
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ workspace: { plan: "free" }, contract: null });
      expect((await op("DELETE", `/workspaces/${id}/enterprise`)).status).toBe(409);
    });
  });
}
