import type { TestApi } from "./kit/test-api.ts";
import type { Principal } from "../../core/access/principal.ts";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { planLimitsGate } from "../../core/billing/gate.ts";
import { grantIncludedCredits } from "../../core/billing/included-credits.ts";
import { calendarMonth } from "../../core/billing/period.ts";
import { commercialUsage } from "../../core/billing/usage.ts";
import { applyAccountChange, attachCustomer, updateAccount } from "../../core/billing/account.ts";
import { createCollection, purgeCollection } from "../../core/collections/collections.ts";
import { createRecord, deleteRecord } from "../../core/collections/records.ts";
import { DEFAULT_SORT } from "../../core/collections/record-sort.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import type { Stores } from "../../core/stores.ts";
import { createTopic, deleteTopic } from "../../core/topics/topics.ts";
import { addMember, removeMember } from "../../core/workspaces/members.ts";
import type { Workspace } from "../../core/workspaces/model.ts";
import { bootstrapped, collectionFixture, newMember, topicFixture, unique } from "./fixtures.ts";
import { identity } from "./fixtures.ts";

/**
 * The contract of billing's usage store (core/billing/ports.ts) and of the plan-limits gate over it
 * (docs/decisions/031-plan-limits.md): exact counts of members, topics, collections and records;
 * a claim past a limit refused with nothing taken; of concurrent creates at one below a limit,
 * exactly one made. Every adapter runs it; each test makes its own workspace.
 */
export function runBillingStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: plan usage store and plan limits`, () => {
    let s: Stores;
    let deps: (mode: "enforce" | "off") => ComposedDeps;
    beforeAll(async () => {
      s = await open();
      const secretBox = await createSecretBox("contract-secret-contract-secret-0");
      deps = (mode) => ({ stores: s, clock: systemClock, secretBox, capacity: planLimitsGate(s.planUsage, mode, s.contracts) });
    });
    afterAll(async () => {
      await s?.close();
    });

    const setup = async (plan: Workspace["plan"] = "free") => {
      const b = await bootstrapped(s);
      const ws: Workspace = { ...b.workspace, plan };
      await s.workspaces.update(ws);
      const p: Principal = {
        workspaceId: ws.id,
        kind: "identity",
        identityId: b.owner.identity.id,
        memberId: b.member.id,
        role: "owner",
        via: "api_key",
        credentialId: b.apiKey.id,
        scopes: API_KEY_SCOPES,
      };
      return { ws, p };
    };
    const refusal = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (e) {
        if (isAppError(e)) return { code: e.code, ...e.meta };
        throw e;
      }
      throw new Error("expected a refusal");
    };

    test("PlanUsageStore.usage() counts what a workspace already holds the first time (the owner's membership, stored items)", async () => {
      const b = await bootstrapped(s);
      await s.topics.insert({ topic: topicFixture(b.workspace.id), event: null } as never).catch(() => {});
      const c = collectionFixture(b.workspace.id);
      await s.collections.insert(c);
      const usage = await s.planUsage.usage(b.workspace.id);
      expect(usage.members).toBe(1);
      expect(usage.collections).toBe(1);
      expect(usage.records).toBe(0);
    });

    test("PlanUsageStore.claim() takes up to the limit, refuses past it with the count, and release() frees capacity", async () => {
      const { ws } = await setup();
      expect(await s.planUsage.claim(ws.id, "collections", 1, 2)).toEqual({ ok: true });
      expect(await s.planUsage.claim(ws.id, "collections", 1, 2)).toEqual({ ok: true });
      expect(await s.planUsage.claim(ws.id, "collections", 1, 2)).toEqual({ ok: false, used: 2 });
      await s.planUsage.release(ws.id, "collections", 1);
      expect((await s.planUsage.usage(ws.id)).collections).toBe(1);
      expect(await s.planUsage.claim(ws.id, "collections", 1, 2)).toEqual({ ok: true });
      expect(await s.planUsage.claim(ws.id, "collections", 1, null)).toEqual({ ok: true });
      expect((await s.planUsage.usage(ws.id)).collections).toBe(3);
    });

    test("PlanUsageStore.claim(): 20 concurrent claims at limit − 1 take exactly one", async () => {
      const { ws } = await setup();
      for (let i = 0; i < 4; i++) await s.planUsage.claim(ws.id, "topics", 1, 5);
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => s.planUsage.claim(ws.id, "topics", 1, 5)));
      expect(outcomes.filter((o) => o.ok).length).toBe(1);
      expect((await s.planUsage.usage(ws.id)).topics).toBe(5);
    });

    test("PlanUsageStore.claim(): 32 concurrent first claims of a counter not seeded yet, without a limit, all take", async () => {
      const { ws } = await setup();
      const outcomes = await Promise.all(Array.from({ length: 32 }, () => s.planUsage.claim(ws.id, "records", 1, null)));
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      expect((await s.planUsage.usage(ws.id)).records).toBe(32);
    });

    test("PlanUsageStore.claim() after a downgrade below usage refuses until deletions bring usage under the new limit", async () => {
      const { ws } = await setup();
      for (let i = 0; i < 6; i++) expect(await s.planUsage.claim(ws.id, "records", 1, 10)).toEqual({ ok: true });
      expect(await s.planUsage.claim(ws.id, "records", 1, 4)).toEqual({ ok: false, used: 6 });
      await s.planUsage.release(ws.id, "records", 3);
      expect((await s.planUsage.usage(ws.id)).records).toBe(3);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => s.planUsage.claim(ws.id, "records", 1, 4)));
      expect(outcomes.filter((o) => o.ok).length).toBe(1);
      expect((await s.planUsage.usage(ws.id)).records).toBe(4);
    });

    test("PlanUsageStore.usageOf() reads several workspaces' counts at once, as usage() does one by one", async () => {
      const b1 = await bootstrapped(s);
      const b2 = await bootstrapped(s);
      await s.planUsage.claim(b2.workspace.id, "topics", 3, null);
      const many = await s.planUsage.usageOf([b1.workspace.id, b2.workspace.id]);
      expect(many.get(b1.workspace.id)).toEqual(await s.planUsage.usage(b1.workspace.id));
      expect(many.get(b2.workspace.id)).toEqual({ members: 1, topics: 3, collections: 0, records: 0 });
      expect((await s.planUsage.usageOf([])).size).toBe(0);
    });

    test("PLAN_LIMITS=enforce: 20 concurrent collection creates at limit − 1 make exactly one; the others are PLAN_LIMIT_REACHED", async () => {
      const { ws, p } = await setup("free"); // 5 collections
      const d = deps("enforce");
      for (let i = 0; i < 4; i++) await createCollection(d as never, p, ws, { name: `c${i}`, archetype: "pipeline" } as never);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => createCollection(d as never, p, ws, { name: `x${i}`, archetype: "pipeline" } as never)),
      );
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(refused.every((r) => isAppError(r.reason) && r.reason.code === "PLAN_LIMIT_REACHED")).toBe(true);
      expect((refused[0]!.reason as { meta: unknown }).meta).toEqual({ limit: "collections", plan: "free", allowed: 5, used: 5 });
      const listed = await s.collections.list(ws.id, { statuses: ["active", "archived"] }, { limit: 50 });
      expect(listed.items.length).toBe(5);
      expect((await s.planUsage.usage(ws.id)).collections).toBe(5);
    });

    // Record creates claim in the record's own insert where the store can (ADR 058): the same answers.
    test("PLAN_LIMITS=enforce: 20 concurrent record creates at limit − 1 make exactly one; the others are PLAN_LIMIT_REACHED, nothing written", async () => {
      const { ws, p } = await setup("enterprise");
      const now = new Date().toISOString();
      await s.contracts.put({
        workspace_id: ws.id,
        plan: "enterprise",
        limits: { records: 4 },
        price: { amount: 100_000, currency: "eur", interval: "year" },
        term_months: 12,
        note: null,
        started_at: now,
        term_ends_at: new Date(Date.now() + 365 * 86_400_000).toISOString(),
        source: "operator",
        offer_id: null,
        updated_at: now,
      }, new Date(Date.now() + 30 * 86_400_000).toISOString());
      const d = deps("enforce");
      const c = await createCollection(d, p, ws, { name: "c", archetype: "pipeline" } as never);
      for (let i = 0; i < 3; i++) await createRecord(d, p, ws, c.id, { fields: {} } as never);
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => createRecord(d, p, ws, c.id, { fields: {} } as never)));
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(refused.every((r) => isAppError(r.reason) && r.reason.code === "PLAN_LIMIT_REACHED")).toBe(true);
      expect((refused[0]!.reason as { meta: unknown }).meta).toEqual({ limit: "records", plan: "enterprise", allowed: 4, used: 4 });
      expect((await s.records.query(ws.id, c.id, { filter: null, sort: DEFAULT_SORT, after: null, limit: 50 })).items.length).toBe(4);
      expect((await s.planUsage.usage(ws.id)).records).toBe(4);
    });

    test("PLAN_LIMITS=off: 24 concurrent record creates, the first of the workspace's, are all counted", async () => {
      const { ws, p } = await setup("free");
      const d = deps("off");
      const c = await createCollection(d, p, ws, { name: "c", archetype: "pipeline" } as never);
      await Promise.all(Array.from({ length: 24 }, () => createRecord(d, p, ws, c.id, { fields: {} } as never)));
      expect((await s.planUsage.usage(ws.id)).records).toBe(24);
    });

    test("PLAN_LIMITS=enforce: deletions free capacity (records, topics, members, a purged collection's records)", async () => {
      const { ws, p } = await setup("free");
      const d = deps("enforce") as never;
      // members: 5 on free; the owner is 1.
      const added = [];
      for (let i = 0; i < 4; i++) added.push(await addMember(d, p, ws, { email: `${unique("m")}@example.com` } as never));
      expect(await refusal(() => addMember(d, p, ws, { email: `${unique("m")}@example.com` } as never))).toMatchObject({
        code: "PLAN_LIMIT_REACHED",
        limit: "members",
        allowed: 5,
        used: 5,
      });
      await removeMember(d, p, ws, added[0]!.id);
      await addMember(d, p, ws, { email: `${unique("m")}@example.com` } as never);
      // topics and records count and free the same way.
      const t = await createTopic(d, p, ws, { title: "One" } as never);
      expect((await s.planUsage.usage(ws.id)).topics).toBe(1);
      await deleteTopic(d, p, ws, t.slug, undefined);
      expect((await s.planUsage.usage(ws.id)).topics).toBe(0);
      const c = await createCollection(d, p, ws, { name: "c", archetype: "pipeline" } as never);
      const r1 = await createRecord(d, p, ws, c.id, { fields: {} } as never);
      await createRecord(d, p, ws, c.id, { fields: {} } as never);
      expect((await s.planUsage.usage(ws.id)).records).toBe(2);
      await deleteRecord(d, p, ws, c.id, r1.id, {}, undefined);
      expect((await s.planUsage.usage(ws.id)).records).toBe(1);
      await purgeCollection(d, p, ws, c.id, {}, 1);
      expect(await s.planUsage.usage(ws.id)).toEqual({ members: 5, topics: 0, collections: 0, records: 0 });
    });

    test("PLAN_LIMITS=off refuses nothing and still counts; a failed create gives its unit back", async () => {
      const { ws, p } = await setup("free");
      const d = deps("off") as never;
      for (let i = 0; i < 6; i++) await createCollection(d, p, ws, { name: `c${i}`, archetype: "pipeline" } as never);
      const usage = await commercialUsage(d, p, ws);
      expect(usage.usage.collections).toEqual({ used: 6, limit: 5 });
      expect(usage.over_limit).toEqual(["collections"]);
      // An already-member add fails: the member count is unchanged.
      const email = `${unique("m")}@example.com`;
      await addMember(d, p, ws, { email } as never);
      await refusal(() => addMember(d, p, ws, { email } as never));
      expect((await s.planUsage.usage(ws.id)).members).toBe(2);
    });

    test("grantIncludedCredits() grants once per period, the difference on an upgrade, nothing on a downgrade or an owner's switch", async () => {
      const { ws, p } = await setup("team");
      const d = deps("off") as never;
      const period = calendarMonth(new Date());
      expect((await grantIncludedCredits(d, ws, "team", period, "owner")).granted).toBe(0);
      expect((await grantIncludedCredits(d, ws, "team", period, "billing")).granted).toBe(2_000);
      expect((await grantIncludedCredits(d, ws, "team", period, "billing")).granted).toBe(0);
      const concurrent = await Promise.all([1, 2, 3].map(() => grantIncludedCredits(d, ws, "business", period, "billing")));
      expect((await s.creditLedger.totals(ws.id)).balance).toBe(10_000);
      expect(concurrent.some((g) => g.granted === 8_000)).toBe(true);
      expect((await grantIncludedCredits(d, ws, "team", period, "billing")).granted).toBe(0);
      const usage = await commercialUsage(d, p, { ...ws, plan: "business" });
      expect(usage.usage.radar_credits).toEqual({ included: 10_000, used: 0, balance: 10_000 });
      // The next period grants again.
      const next = calendarMonth(new Date(Date.parse(period.end) + 1000));
      expect((await grantIncludedCredits(d, ws, "business", next, "billing")).granted).toBe(10_000);
    });

    test("BillingAccountStore: none at first; put() creates version 1 and compares versions; getByCustomer() finds it", async () => {
      const { ws, p } = await setup();
      expect(await s.billingAccounts.get(ws.id)).toBeNull();
      const at = new Date().toISOString();
      const first = applyAccountChange(null, ws.id, { customer_id: `cus_${ws.id}`, status: "active", plan: "team" }, 100, at)!;
      expect(first.version).toBe(1);
      expect(await s.billingAccounts.put(first, null)).toBe(true);
      expect(await s.billingAccounts.put(first, null)).toBe(false);
      const end = "2030-02-01T00:00:00.000Z";
      const second = applyAccountChange(
        first,
        ws.id,
        { current_period_start: "2030-01-01T00:00:00.000Z", current_period_end: end },
        101,
        at,
      )!;
      expect(await s.billingAccounts.put(second, 5)).toBe(false);
      expect(await s.billingAccounts.put(second, 1)).toBe(true);
      expect(await s.billingAccounts.get(ws.id)).toEqual(second);
      expect(await s.billingAccounts.getByCustomer(`cus_${ws.id}`)).toEqual(second);
      expect(await s.billingAccounts.getByCustomer("cus_nobody")).toBeNull();
      const usage = await commercialUsage(deps("off") as never, p, ws);
      expect(usage.billing).toEqual({ status: "active", current_period_end: end });
    });

    test("BillingAccountStore.getMany(): a page of workspaces' accounts in one read, the newest version each, absent ones left out", async () => {
      const [a, b, none] = [await setup(), await setup(), await setup()];
      const at = new Date().toISOString();
      const first = applyAccountChange(null, a.ws.id, { customer_id: `cus_${a.ws.id}`, status: "active", plan: "team" }, 100, at)!;
      expect(await s.billingAccounts.put(first, null)).toBe(true);
      const newer = applyAccountChange(first, a.ws.id, { status: "past_due" }, 101, at)!;
      expect(await s.billingAccounts.put(newer, 1)).toBe(true);
      const other = applyAccountChange(null, b.ws.id, { customer_id: `cus_${b.ws.id}`, status: "trialing", plan: "business" }, 100, at)!;
      expect(await s.billingAccounts.put(other, null)).toBe(true);
      const many = await s.billingAccounts.getMany([a.ws.id, b.ws.id, none.ws.id]);
      expect([...many.keys()].sort()).toEqual([a.ws.id, b.ws.id].sort());
      expect(many.get(a.ws.id)).toEqual(newer);
      expect(many.get(b.ws.id)).toEqual(other);
      expect((await s.billingAccounts.getMany([])).size).toBe(0);
    });

    test("BillingAccountStore.put(): of 10 concurrent writes naming one version exactly one is kept", async () => {
      const { ws } = await setup();
      const at = new Date().toISOString();
      await s.billingAccounts.put(applyAccountChange(null, ws.id, { status: "active" }, 1, at)!, null);
      const base = (await s.billingAccounts.get(ws.id))!;
      const results = await Promise.all(
        Array.from(
          { length: 10 },
          (_, i) => s.billingAccounts.put(applyAccountChange(base, ws.id, { subscription_id: `sub_${i}` }, 2, at)!, base.version),
        ),
      );
      expect(results.filter(Boolean).length).toBe(1);
      const won = results.indexOf(true);
      expect(await s.billingAccounts.get(ws.id)).toMatchObject({ subscription_id: `sub_${won}`, version: 2 });
    });

    test("updateAccount(): concurrent events all apply, in turn; an older event is stale; attachCustomer() keeps the first customer", async () => {
      const { ws } = await setup();
      const at = new Date().toISOString();
      await Promise.all(
        Array.from(
          { length: 5 },
          (_, i) =>
            updateAccount(
              s.billingAccounts,
              ws.id,
              (c) => applyAccountChange(c, ws.id, { status: "active", subscription_id: `sub_${i}` }, 1_000 + i, at),
            ),
        ),
      );
      const after = (await s.billingAccounts.get(ws.id))!;
      // The newest event holds, whatever the order they came in; each wrote at most once (an event
      // that found a newer one applied was stale and wrote nothing).
      expect(after).toMatchObject({ last_event_created: 1_004, subscription_id: "sub_4" });
      expect(after.version).toBeGreaterThanOrEqual(1);
      expect(after.version).toBeLessThanOrEqual(5);
      const stale = await updateAccount(s.billingAccounts, ws.id, (c) => applyAccountChange(c, ws.id, { status: "canceled" }, 999, at));
      expect(stale.written).toBeNull();
      expect((await s.billingAccounts.get(ws.id))!.status).toBe("active");
      const customers = await Promise.all(
        ["cus_a", "cus_b", "cus_c"].map((c) => attachCustomer(s.billingAccounts, ws.id, `${c}_${ws.id}`, at)),
      );
      expect(new Set(customers).size).toBe(1);
      expect((await s.billingAccounts.get(ws.id))!.customer_id).toBe(customers[0]);
      expect(await attachCustomer(s.billingAccounts, ws.id, "cus_later", at)).toBe(customers[0]);
    });

    test("WorkspaceStore.delete() removes the workspace's usage counters and billing account", async () => {
      const { ws } = await setup();
      await s.planUsage.claim(ws.id, "records", 3, null);
      await attachCustomer(s.billingAccounts, ws.id, `cus_gone_${ws.id}`, new Date().toISOString());
      expect(await s.workspaces.delete(ws.id)).toBe(true);
      expect(await s.billingAccounts.get(ws.id)).toBeNull();
      expect(await s.billingAccounts.getByCustomer(`cus_gone_${ws.id}`)).toBeNull();
      // A counter touched again starts from the (no) items.
      expect((await s.planUsage.usage(ws.id)).records).toBe(0);
    });
    void newMember;
    void identity;
  });
}
