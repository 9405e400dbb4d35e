import type { TestApi } from "./kit/test-api.ts";
import type { Principal } from "../../core/access/principal.ts";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { endEnterprisePlan, setEnterprisePlan } from "../../core/offers/contracts.ts";
import { planLimitsGate } from "../../core/billing/gate.ts";
import type { BillingOffer, Contract } from "../../core/offers/model.ts";
import { acceptOffer, createOffer, reissueOffer } from "../../core/offers/offers.ts";
import { PLATFORM_OPERATOR } from "../../core/credits/policy.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { fixedClock, systemClock } from "../../core/kernel/clock.ts";
import { billingSweep } from "../../core/offers/sweep.ts";
import { grantDueCredits } from "../../core/offers/included-schedule.ts";
import { offerContract, recoverOfferEffects } from "../../core/offers/offers.ts";
import { grantCredits } from "../../core/credits/mod.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { jobRunner } from "../../workers/registry.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, unique } from "./fixtures.ts";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** An open offer of `workspaceId` created `ageMs` ago, expiring `expiresInMs` from now. */
function offerFixture(workspaceId: string, over: Partial<BillingOffer> = {}, createdAt = Date.now()): BillingOffer {
  const at = iso(createdAt);
  return {
    id: uuidv7(createdAt),
    workspace_id: workspaceId,
    plan: "team",
    limits: null,
    price: { amount: 4_500, currency: "eur", interval: "month" },
    term_months: 12,
    radar_credits: null,
    expires_at: iso(Date.now() + 30 * DAY),
    note: null,
    status: "open",
    revision: 1,
    supersedes: null,
    superseded_by: null,
    created_at: at,
    updated_at: at,
    accepted_at: null,
    cancelled_at: null,
    superseded_at: null,
    ...over,
  };
}

function contractFixture(workspaceId: string, over: Partial<Contract> = {}): Contract {
  const now = new Date().toISOString();
  return {
    workspace_id: workspaceId,
    plan: "enterprise",
    limits: { members: 3 },
    price: { amount: 100_000, currency: "eur", interval: "year" },
    term_months: 12,
    note: null,
    started_at: now,
    term_ends_at: iso(Date.now() + 365 * DAY),
    source: "operator",
    offer_id: null,
    updated_at: now,
    ...over,
  };
}

/**
 * The contract of offers' stores (core/offers/ports.ts: OfferStore, ContractStore; ADR 034):
 * transitions out of `open` are compare-and-set (of concurrent ones exactly one happens), a reissue
 * is atomic (of concurrent reissues of one offer exactly one succeeds), `expired` is read from
 * `expires_at`; one contract per workspace, whose limits are an enterprise workspace's; the
 * operator's list of workspaces.
 */
export function runOfferStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: offer and contract stores`, () => {
    let s: Stores;
    let deps: (mode?: "enforce" | "off") => ComposedDeps;
    beforeAll(async () => {
      s = await open();
      const secretBox = await createSecretBox("contract-secret-contract-secret-0");
      deps = (mode = "off") => ({ stores: s, clock: systemClock, secretBox, capacity: planLimitsGate(s.planUsage, mode, s.contracts) });
    });
    afterAll(async () => {
      await s?.close();
    });

    const owner = (b: Awaited<ReturnType<typeof bootstrapped>>): Principal => ({
      workspaceId: b.workspace.id,
      kind: "identity",
      identityId: b.owner.identity.id,
      memberId: b.member.id,
      role: "owner",
      via: "api_key",
      credentialId: b.apiKey.id,
      scopes: API_KEY_SCOPES,
    });
    const codeOf = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (e) {
        if (isAppError(e)) return e.code;
        throw e;
      }
      return "ok";
    };

    test("OfferStore.insert() and get() keep every term; get() of an unknown id is null", async () => {
      const b = await bootstrapped(s);
      const offer = offerFixture(b.workspace.id, {
        plan: "enterprise",
        limits: { members: 40, records: null, radar_credits_monthly: 500 },
        radar_credits: 1_000,
        note: "Annual deal",
      });
      await s.offers.insert(offer);
      expect(await s.offers.get(offer.id)).toEqual(offer);
      expect(await s.offers.get(uuidv7())).toBeNull();
      expect(await s.offers.get("not-a-uuid")).toBeNull();
    });

    test("OfferStore.list() pages newest first, by workspace and by status; open past expires_at lists as expired", async () => {
      const b = await bootstrapped(s);
      const t0 = Date.now() - 10_000;
      const a = offerFixture(b.workspace.id, {}, t0);
      const stale = offerFixture(b.workspace.id, { expires_at: iso(Date.now() - 1_000) }, t0 + 1_000);
      const c = offerFixture(b.workspace.id, {}, t0 + 2_000);
      for (const o of [a, stale, c]) await s.offers.insert(o);
      const now = new Date().toISOString();
      const all = await s.offers.list({ workspace_id: b.workspace.id }, now, { limit: 2, offset: 0 });
      expect(all.total).toBe(3);
      expect(all.items.map((o) => o.id)).toEqual([c.id, stale.id]);
      const rest = await s.offers.list({ workspace_id: b.workspace.id }, now, { limit: 2, offset: 2 });
      expect(rest.items.map((o) => o.id)).toEqual([a.id]);
      const openOnes = await s.offers.list({ workspace_id: b.workspace.id, status: "open" }, now, { limit: 10, offset: 0 });
      expect(openOnes.items.map((o) => o.id)).toEqual([c.id, a.id]);
      const expired = await s.offers.list({ workspace_id: b.workspace.id, status: "expired" }, now, { limit: 10, offset: 0 });
      expect(expired.items.map((o) => o.id)).toEqual([stale.id]);
      expect(expired.items[0]!.status).toBe("open"); // stored open; the use case reads it as expired
      const everywhere = await s.offers.list({}, now, { limit: 200, offset: 0 });
      expect(everywhere.items.map((o) => o.id)).toContain(a.id);
    });

    test("OfferStore.close() moves open to accepted or cancelled once; a closed or expired offer is null, nothing changed", async () => {
      const b = await bootstrapped(s);
      const offer = offerFixture(b.workspace.id);
      await s.offers.insert(offer);
      const at = new Date().toISOString();
      const accepted = await s.offers.close(offer.id, "accepted", at);
      expect(accepted).toMatchObject({ id: offer.id, status: "accepted", accepted_at: at, cancelled_at: null });
      expect(await s.offers.close(offer.id, "cancelled", at)).toBeNull();
      expect(await s.offers.get(offer.id)).toMatchObject({ status: "accepted", accepted_at: at });
      const stale = offerFixture(b.workspace.id, { expires_at: iso(Date.now() - 1) });
      await s.offers.insert(stale);
      expect(await s.offers.close(stale.id, "cancelled", new Date().toISOString())).toBeNull();
      expect((await s.offers.get(stale.id))!.status).toBe("open");
      expect(await s.offers.close(uuidv7(), "accepted", at)).toBeNull();
    });

    test("OfferStore.close(): of 10 concurrent accepts and cancels of one offer exactly one happens", async () => {
      const b = await bootstrapped(s);
      const offer = offerFixture(b.workspace.id);
      await s.offers.insert(offer);
      const at = new Date().toISOString();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => s.offers.close(offer.id, i % 2 ? "accepted" : "cancelled", at)),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect((await s.offers.get(offer.id))!.status).toBe(winners[0]!.status);
    });

    test("OfferStore.supersede() closes an open (or expired) offer as superseded_by the new one and inserts it; again, null", async () => {
      const b = await bootstrapped(s);
      const old = offerFixture(b.workspace.id, { expires_at: iso(Date.now() - 1_000) });
      await s.offers.insert(old);
      const next = offerFixture(b.workspace.id, { revision: 2, supersedes: old.id }, Date.now() + 1);
      const at = new Date().toISOString();
      const done = await s.offers.supersede(old.id, next, at);
      expect(done!.previous).toMatchObject({ id: old.id, status: "superseded", superseded_by: next.id, superseded_at: at });
      expect(done!.next).toEqual(next);
      expect(await s.offers.get(old.id)).toMatchObject({ status: "superseded", superseded_by: next.id });
      expect(await s.offers.get(next.id)).toEqual(next);
      const again = offerFixture(b.workspace.id, { revision: 2, supersedes: old.id });
      expect(await s.offers.supersede(old.id, again, at)).toBeNull();
      expect(await s.offers.get(again.id)).toBeNull();
      const accepted = offerFixture(b.workspace.id);
      await s.offers.insert(accepted);
      await s.offers.close(accepted.id, "accepted", at);
      expect(await s.offers.supersede(accepted.id, offerFixture(b.workspace.id), at)).toBeNull();
    });

    test("OfferStore.supersede(): of 10 concurrent reissues of one offer exactly one succeeds, the losers' offers are nowhere", async () => {
      const b = await bootstrapped(s);
      const old = offerFixture(b.workspace.id);
      await s.offers.insert(old);
      const at = new Date().toISOString();
      const nexts = Array.from({ length: 10 }, () => offerFixture(b.workspace.id, { revision: 2, supersedes: old.id }));
      const results = await Promise.all(nexts.map((n) => s.offers.supersede(old.id, n, at)));
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!.next.id;
      expect((await s.offers.get(old.id))!.superseded_by).toBe(winner);
      for (const n of nexts) if (n.id !== winner) expect(await s.offers.get(n.id)).toBeNull();
      const listed = await s.offers.list({ workspace_id: b.workspace.id }, at, { limit: 50, offset: 0 });
      expect(listed.total).toBe(2);
      expect(listed.items.map((o) => o.id).sort()).toEqual([old.id, winner].sort());
    });

    test("ContractStore keeps one contract per workspace: put replaces, getMany batches, delete answers whether there was one", async () => {
      const b1 = await bootstrapped(s);
      const b2 = await bootstrapped(s);
      const c1 = contractFixture(b1.workspace.id);
      await s.contracts.put(c1, iso(Date.now() + 30 * DAY));
      expect(await s.contracts.get(b1.workspace.id)).toEqual(c1);
      const replaced = contractFixture(b1.workspace.id, {
        limits: { members: 9, radar_credits_monthly: 10 },
        note: "renewed",
        plan: "enterprise",
      });
      await s.contracts.put(replaced, iso(Date.now() + 30 * DAY));
      expect(await s.contracts.get(b1.workspace.id)).toEqual(replaced);
      await s.contracts.put(
        contractFixture(b2.workspace.id, { plan: "team", limits: null, source: "offer", offer_id: uuidv7() }),
        iso(Date.now() + 30 * DAY),
      );
      const many = await s.contracts.getMany([b1.workspace.id, b2.workspace.id, uuidv7()]);
      expect([...many.keys()].sort()).toEqual([b1.workspace.id, b2.workspace.id].sort());
      expect(many.get(b2.workspace.id)!.limits).toBeNull();
      expect(await s.contracts.delete(b1.workspace.id)).toBe(true);
      expect(await s.contracts.delete(b1.workspace.id)).toBe(false);
      expect(await s.contracts.get(b1.workspace.id)).toBeNull();
    });

    test("WorkspaceStore.list() pages every workspace newest first, by slug or name (case-insensitive) and by plan", async () => {
      const tag = unique("lst").toLowerCase();
      const made = [];
      for (let i = 0; i < 3; i++) {
        const b = await bootstrapped(s);
        const ws = { ...b.workspace, name: `${tag.toUpperCase()} ${i}`, plan: i === 1 ? ("team" as const) : ("free" as const) };
        await s.workspaces.update(ws);
        made.push(ws);
        await new Promise((r) => setTimeout(r, 3));
      }
      const page = await s.workspaces.list({ q: tag }, { limit: 2, offset: 0 });
      expect(page.total).toBe(3);
      expect(page.items.map((w) => w.id)).toEqual([made[2]!.id, made[1]!.id]);
      const team = await s.workspaces.list({ q: tag, plan: "team" }, { limit: 10, offset: 0 });
      expect(team.items.map((w) => w.id)).toEqual([made[1]!.id]);
      const bySlug = await s.workspaces.list({ q: made[0]!.slug }, { limit: 10, offset: 0 });
      expect(bySlug.items.map((w) => w.id)).toEqual([made[0]!.id]);
      expect((await s.workspaces.list({ q: "%_%no-such" }, { limit: 10, offset: 0 })).total).toBe(0);
    });

    test("WorkspaceStore.delete() removes the workspace's offers and contract", async () => {
      const b = await bootstrapped(s);
      const offer = offerFixture(b.workspace.id);
      await s.offers.insert(offer);
      await s.contracts.put(contractFixture(b.workspace.id), iso(Date.now() - DAY));
      await s.offers.close(offer.id, "accepted", iso(Date.now()));
      await s.workspaces.delete(b.workspace.id);
      expect(await s.contracts.grantsOf(b.workspace.id)).toEqual([]);
      expect((await s.contracts.dueGrants(iso(Date.now()), 1_000)).some((d) => d.workspace_id === b.workspace.id)).toBe(false);
      expect((await s.offers.pendingEffects(iso(Date.now() + DAY), 1_000)).some((o) => o.id === offer.id)).toBe(false);
      expect(await s.offers.get(offer.id)).toBeNull();
      expect(await s.contracts.get(b.workspace.id)).toBeNull();
    });

    test("reissueOffer(): of two concurrent reissues of one offer one succeeds and the other is CONFLICT", async () => {
      const b = await bootstrapped(s);
      const d = deps();
      const first = await createOffer(d, PLATFORM_OPERATOR, {
        workspace_id: b.workspace.id,
        plan: "business",
        price: { amount: 20_000, currency: "eur", interval: "month" },
        term_months: 12,
      });
      const outcomes = await Promise.all([
        codeOf(() => reissueOffer(d, PLATFORM_OPERATOR, first.id, { term_months: 24 })),
        codeOf(() => reissueOffer(d, PLATFORM_OPERATOR, first.id, { term_months: 36 })),
      ]);
      expect(outcomes.sort()).toEqual(["CONFLICT", "ok"]);
    });

    test("an enterprise workspace's limits are its contract's under enforcement; ending it returns to free", async () => {
      const b = await bootstrapped(s);
      const d = deps("enforce");
      await setEnterprisePlan(d, PLATFORM_OPERATOR, b.workspace, {
        limits: { topics: 1 },
        price: { amount: 1_000_000, currency: "eur", interval: "year" },
        term_months: 12,
      });
      const ws = (await s.workspaces.getById(b.workspace.id))!;
      expect(ws.plan).toBe("enterprise");
      await d.capacity!.claim(ws, "topics");
      expect(await codeOf(() => d.capacity!.claim(ws, "topics"))).toBe("PLAN_LIMIT_REACHED");
      await d.capacity!.claim(ws, "collections", 50); // unset: unlimited
      await endEnterprisePlan(d, PLATFORM_OPERATOR, ws);
      expect((await s.workspaces.getById(b.workspace.id))!.plan).toBe("free");
      expect(await s.contracts.get(b.workspace.id)).toBeNull();
    });

    test("acceptOffer(): the plan and contract apply, radar_credits are granted once; a second accept is CONFLICT", async () => {
      const b = await bootstrapped(s);
      const d = deps();
      const offer = await createOffer(d, PLATFORM_OPERATOR, {
        workspace_id: b.workspace.id,
        plan: "enterprise",
        limits: { members: 10, radar_credits_monthly: 300 },
        price: { amount: 500_000, currency: "eur", interval: "year" },
        term_months: 24,
        radar_credits: 700,
      });
      const result = await acceptOffer(d, owner(b), b.workspace, offer.id);
      expect(result.offer.status).toBe("accepted");
      expect(result.workspace.plan).toBe("enterprise");
      expect(result.limits).toMatchObject({ members: 10, topics: null, radar_credits_monthly: 300 });
      expect(result.credits_granted).toEqual({ offer: 700, included: 300 });
      expect((await s.creditLedger.totals(b.workspace.id)).balance).toBe(1_000);
      expect(await codeOf(() => acceptOffer(d, owner(b), b.workspace, offer.id))).toBe("CONFLICT");
      expect((await s.creditLedger.totals(b.workspace.id)).balance).toBe(1_000);
      expect(await s.contracts.get(b.workspace.id)).toMatchObject({ plan: "enterprise", offer_id: offer.id, source: "offer" });
    });

    test("ContractStore schedules the next included grant: put sets it, dueGrants finds it when due, advanceGrant moves it once, a replaced contract's is gone", async () => {
      const b = await bootstrapped(s);
      const ws = b.workspace.id;
      const c = contractFixture(ws, { started_at: iso(Date.now() - 40 * DAY) });
      const due = { workspace_id: ws, contract_started_at: c.started_at, due_at: iso(Date.now() - 10 * DAY) };
      await s.contracts.put(c, due.due_at);
      expect(await s.contracts.grantsOf(ws)).toEqual([due]);
      expect(await s.contracts.dueGrants(iso(Date.now()), 10_000)).toContainEqual(due);
      expect(await s.contracts.dueGrants(iso(Date.now() - 11 * DAY), 10_000)).not.toContainEqual(due);
      const next = iso(Date.now() + 20 * DAY);
      await Promise.all([s.contracts.advanceGrant(due, next), s.contracts.advanceGrant(due, next)]);
      expect(await s.contracts.grantsOf(ws)).toEqual([{ ...due, due_at: next }]);
      await s.contracts.advanceGrant(due, iso(Date.now() + 99 * DAY)); // already moved: nothing
      expect(await s.contracts.grantsOf(ws)).toEqual([{ ...due, due_at: next }]);
      const replaced = contractFixture(ws, { started_at: iso(Date.now()) });
      const firstDue = iso(Date.now() + 30 * DAY);
      await s.contracts.put(replaced, firstDue);
      // Only the replacing contract's schedule remains.
      const [only, ...rest] = await s.contracts.grantsOf(ws);
      expect(rest).toEqual([]);
      expect(only).toEqual({ workspace_id: ws, contract_started_at: replaced.started_at, due_at: firstDue });
      await s.contracts.advanceGrant(only!, null);
      expect(await s.contracts.grantsOf(ws)).toEqual([]);
    });

    test("OfferStore: an acceptance records its effects pending in the same write; a cancel does not; settleEffects clears them once", async () => {
      const b = await bootstrapped(s);
      const accepted = offerFixture(b.workspace.id);
      const cancelled = offerFixture(b.workspace.id);
      await s.offers.insert(accepted);
      await s.offers.insert(cancelled);
      const at = iso(Date.now());
      await s.offers.close(accepted.id, "accepted", at);
      await s.offers.close(cancelled.id, "cancelled", at);
      expect(await s.offers.hasPendingEffects(accepted.id)).toBe(true);
      expect(await s.offers.hasPendingEffects(cancelled.id)).toBe(false);
      expect(await s.offers.hasPendingEffects(uuidv7())).toBe(false);
      const pending = (await s.offers.pendingEffects(at, 10_000)).filter((o) => o.workspace_id === b.workspace.id);
      expect(pending.map((o) => [o.id, o.status, o.accepted_at])).toEqual([[accepted.id, "accepted", at]]);
      expect((await s.offers.pendingEffects(iso(Date.parse(at) - 1), 10_000)).some((o) => o.id === accepted.id)).toBe(false);
      await Promise.all([s.offers.settleEffects(accepted.id), s.offers.settleEffects(accepted.id)]);
      expect(await s.offers.hasPendingEffects(accepted.id)).toBe(false);
      expect((await s.offers.pendingEffects(iso(Date.now() + DAY), 10_000)).some((o) => o.id === accepted.id)).toBe(false);
      expect((await s.offers.get(accepted.id))!.status).toBe("accepted");
    });

    const MONTH = 31 * DAY;
    const enterpriseOffer = (workspaceId: string) => ({
      workspace_id: workspaceId,
      plan: "enterprise" as const,
      limits: { members: 10, radar_credits_monthly: 300 },
      price: { amount: 500_000, currency: "eur" as const, interval: "year" as const },
      term_months: 24,
      radar_credits: 700,
    });

    test("included credits at each later period start: granted once per contract period by the sweep's job, restart-safe, missed periods caught up", async () => {
      const b = await bootstrapped(s);
      const clock = fixedClock(new Date());
      const d: ComposedDeps = { ...deps(), clock };
      await setEnterprisePlan(d, PLATFORM_OPERATOR, b.workspace, {
        limits: { radar_credits_monthly: 500 },
        price: { amount: 1_000_000, currency: "eur", interval: "year" },
        term_months: 12,
      });
      const balance = async () => (await s.creditLedger.totals(b.workspace.id)).balance;
      expect(await balance()).toBe(500);
      const [first] = await s.contracts.grantsOf(b.workspace.id);
      const to = (at: string) => clock.advance(Date.parse(at) - clock.now().getTime());
      // Before the second period starts the sweep grants nothing.
      to(iso(Date.parse(first!.due_at) - 1));
      await billingSweep(d);
      expect(await balance()).toBe(500);
      // The second period starts: the sweep queues the job, the job (through the registry) grants it.
      to(first!.due_at);
      const log: string[] = [];
      const jobs = createMemoryJobQueue((level, msg) => log.push(`${level} ${msg}`));
      jobs.consume(jobRunner(() => ({ ...d, jobs })));
      await billingSweep({ ...d, jobs });
      await jobs.drain();
      await jobs.close(0);
      // No job failed; the one still waiting at shutdown is the next period's, queued by the job itself.
      expect(log.filter((l) => !l.startsWith("info"))).toEqual(["warn jobs dropped at shutdown"]);
      expect(await balance()).toBe(1_000);
      const [second] = await s.contracts.grantsOf(b.workspace.id);
      expect(Date.parse(second!.due_at)).toBeGreaterThan(Date.parse(first!.due_at));
      // A retry of the period already granted (a crash after the grant, a redelivered job) grants nothing.
      expect((await grantDueCredits(d, first!)).granted).toBe(0);
      await billingSweep(d);
      expect(await balance()).toBe(1_000);
      // Down for three periods: each started period is granted once, the next is scheduled.
      clock.advance(3 * MONTH);
      await billingSweep(d);
      await billingSweep(d);
      const keys = (await s.creditLedger.history(b.workspace.id, {}, { limit: 50 }))
        .filter((e) => e.type === "grant").map((e) => e.idempotency_key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(await balance()).toBe(500 * keys.length);
      expect(keys.length).toBeGreaterThanOrEqual(4);
      const [later] = await s.contracts.grantsOf(b.workspace.id);
      expect(Date.parse(later!.due_at)).toBeGreaterThan(clock.now().getTime());
      // Ended: the schedule goes with the contract.
      await endEnterprisePlan(d, PLATFORM_OPERATOR, (await s.workspaces.getById(b.workspace.id))!);
      expect(await s.contracts.grantsOf(b.workspace.id)).toEqual([]);
    });

    test("acceptOffer() crash between the acceptance and its effects: the sweep applies them once, after the grace; again, nothing", async () => {
      const b = await bootstrapped(s);
      const clock = fixedClock(new Date());
      const d: ComposedDeps = { ...deps(), clock };
      const offer = await createOffer(d, PLATFORM_OPERATOR, enterpriseOffer(b.workspace.id));
      // The acceptance's write, then the crash: nothing applied.
      await s.offers.close(offer.id, "accepted", clock.now().toISOString());
      expect((await s.workspaces.getById(b.workspace.id))!.plan).toBe("free");
      expect(await s.contracts.get(b.workspace.id)).toBeNull();
      // A recent acceptance is left to its own request.
      expect((await billingSweep(d)).offers).toBe(0);
      clock.advance(2 * 60_000);
      expect((await billingSweep(d)).offers).toBeGreaterThanOrEqual(1);
      expect((await s.workspaces.getById(b.workspace.id))!.plan).toBe("enterprise");
      expect(await s.contracts.get(b.workspace.id)).toMatchObject({ plan: "enterprise", offer_id: offer.id, source: "offer" });
      expect((await s.creditLedger.totals(b.workspace.id)).balance).toBe(1_000);
      expect(await s.offers.hasPendingEffects(offer.id)).toBe(false);
      expect(await recoverOfferEffects(d, b.workspace.id, offer.id)).toBe(false);
      await billingSweep(d);
      expect((await s.creditLedger.totals(b.workspace.id)).balance).toBe(1_000);
      // The accept itself is still answered 409: the offer is accepted.
      expect(await codeOf(() => acceptOffer(d, owner(b), b.workspace, offer.id))).toBe("CONFLICT");
    });

    test("acceptOffer() crash midway through its effects: the recovery completes them without doubling any; a later contract stands", async () => {
      const b = await bootstrapped(s);
      const clock = fixedClock(new Date());
      const d: ComposedDeps = { ...deps(), clock };
      const offer = await createOffer(d, PLATFORM_OPERATOR, enterpriseOffer(b.workspace.id));
      const accepted = (await s.offers.close(offer.id, "accepted", clock.now().toISOString()))!;
      // The first attempt kept the contract and granted the offer's credits, then crashed.
      await grantCredits(d, PLATFORM_OPERATOR, b.workspace, { amount: 700, reason: "first attempt" }, {
        idempotencyKey: `offer:${offer.id}`,
      });
      const contract = offerContract(accepted);
      await s.contracts.put(contract, iso(Date.parse(contract.started_at) + MONTH));
      expect(await recoverOfferEffects(d, b.workspace.id, offer.id)).toBe(true);
      expect((await s.creditLedger.totals(b.workspace.id)).balance).toBe(1_000); // 700 once, 300 included
      expect((await s.workspaces.getById(b.workspace.id))!.plan).toBe("enterprise");
      expect(await recoverOfferEffects(d, b.workspace.id, offer.id)).toBe(false);

      // Another workspace: accepted, crashed, then the operator set its own contract before the recovery.
      const b2 = await bootstrapped(s);
      const other = await createOffer(d, PLATFORM_OPERATOR, enterpriseOffer(b2.workspace.id));
      await s.offers.close(other.id, "accepted", clock.now().toISOString());
      clock.advance(1_000);
      await setEnterprisePlan(d, PLATFORM_OPERATOR, b2.workspace, {
        limits: { members: 3 },
        price: { amount: 1, currency: "eur", interval: "year" },
        term_months: 1,
      });
      expect(await recoverOfferEffects(d, b2.workspace.id, other.id)).toBe(true);
      expect(await s.contracts.get(b2.workspace.id)).toMatchObject({ source: "operator", limits: { members: 3 } });
      expect((await s.creditLedger.totals(b2.workspace.id)).balance).toBe(700); // the offer's credits, bought
    });

    test("acceptOffer() leaves no effects pending", async () => {
      const b = await bootstrapped(s);
      const offer = await createOffer(deps(), PLATFORM_OPERATOR, enterpriseOffer(b.workspace.id));
      await acceptOffer(deps(), owner(b), b.workspace, offer.id);
      expect(await s.offers.hasPendingEffects(offer.id)).toBe(false);
    });
  });
}
