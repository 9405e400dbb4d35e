import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { WorkspaceEvent } from "../../core/events/event.ts";
import type { Stores } from "../../core/stores.ts";
import { standardWebhookSignature } from "../../core/webhooks/mod.ts";
import { createMemoryEventBus } from "../../adapters/memory/event-bus.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const OPERATOR = "op_" + "r".repeat(40);
const WEBHOOK_SECRET = "whsec_" + btoa("radar-monitor-webhook-secret-0123456789");
const companies = { industries: ["software"], countries: ["DE"] };

/**
 * Radar searches and runs over HTTP (ADR 026), on the stores `open` gives: opening, pricing,
 * starting with the hold and the charge, results as records and entities, trace and stream,
 * monitors and their webhook. No job queue here: a started run runs within the request.
 */
export function radarRunsSuite(name: string, open: () => Promise<Stores>, close: () => Promise<void> = async () => {}) {
  describe(`radar runs API (${name})`, () => {
    let t: TestApp;
    let p: Personas;
    let other: { slug: string; key: string };
    const events: WorkspaceEvent[] = [];
    const slug = "radar-runs";
    const ws = (path: string) => `/workspaces/${slug}/radar${path}`;
    const grant = (amount: number) => t.call("POST", ws("/credits/grant"), { key: OPERATOR, body: { amount } });
    const credits = async () => (await t.call("GET", ws("/credits"), { key: p.member })).body;
    const openSearch = (body: unknown, key = p.member) => t.call("POST", ws("/searches"), { key, body });

    beforeAll(async () => {
      const bus = createMemoryEventBus();
      t = await makeTestApp(await open(), {
        events: bus,
        platformAdminKey: OPERATOR,
        radarWebhookSecret: WEBHOOK_SECRET,
        core: { prospects: createSampleDirectory() },
      });
      p = await personas(t, slug);
      other = await t.bootstrap(`${slug}-other`);
      const w = await t.core.stores.workspaces.getBySlug(slug);
      bus.subscribe(w!.id, (e) => void events.push(e));
    });
    afterAll(close);

    test("open → price → start: the run writes each match as a record linked to its entity, charges created × unit, releases the rest", async () => {
      const opened = await openSearch({
        criterion: { title: "German software companies", kind: "company", filter: companies },
        max_results: 50,
      });
      expect(opened.status).toBe(201);
      const { search, run, criterion, monitor } = opened.body;
      expect(monitor).toBeNull();
      expect(criterion).toMatchObject({
        slug: "german-software-companies",
        kind: "company",
        filter: companies,
        version: 1,
        trust: "draft",
      });
      expect(run).toMatchObject({ state: "draft", search_id: search.id, quote: null, hold_credits: 0, charged_credits: 0 });
      // A new pipeline collection, radar's fields declared, the criterion named in its context.
      const coll = await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}`, { key: p.member });
      expect(coll.body).toMatchObject({ archetype: "pipeline", criterion_rel_slugs: ["german-software-companies"] });
      expect(Object.keys(coll.body.record_schema.fields).sort()).toEqual(["country", "domain", "employee_count", "industry", "name"]);
      expect(coll.body.record_schema.additional_fields).toBe(true);

      const priced = await t.call("POST", ws(`/runs/${run.id}/price`), { key: p.member, body: {} });
      expect(priced.status).toBe(201);
      expect(priced.headers.get("x-credits-charged")).toBe("0");
      const quote = priced.body.quote;
      expect(priced.body.state).toBe("priced");
      expect(quote.unit_credits).toBe(1);
      expect(quote.estimated_results).toBeGreaterThan(0);
      expect(quote.estimated_results).toBeLessThanOrEqual(50);
      expect(quote.max_credits).toBe(quote.estimated_results * quote.unit_credits);
      expect(quote.criterion_version).toBe(1);
      expect(quote.filter).toBeUndefined();

      // Short of credits: 402 with the shortfall, nothing held, the run still priced.
      const short = await t.call("POST", ws(`/runs/${run.id}/start`), { key: p.member });
      expect(short.status).toBe(402);
      expect(short.body.error).toMatchObject({
        code: "INSUFFICIENT_CREDITS",
        required: quote.max_credits,
        available: 0,
        shortfall: quote.max_credits,
      });
      expect((await t.call("GET", ws(`/runs/${run.id}`), { key: p.member })).body.state).toBe("priced");
      expect(await credits()).toMatchObject({ balance: 0, held: 0 });

      await grant(1000);
      const started = await t.call("POST", ws(`/runs/${run.id}/start`), { key: p.member });
      expect(started.status).toBe(201);
      const done = (await t.call("GET", ws(`/runs/${run.id}`), { key: p.member })).body;
      expect(done.state).toBe("completed");
      expect(done.results).toEqual({ matched: quote.estimated_results, created: quote.estimated_results, updated: 0, unchanged: 0 });
      expect(done.hold_credits).toBe(quote.max_credits);
      expect(done.charged_credits).toBe(quote.estimated_results * quote.unit_credits);
      expect(done.released_credits).toBe(done.hold_credits - done.charged_credits);
      expect(await credits()).toMatchObject({ balance: 1000 - done.charged_credits, held: 0, available: 1000 - done.charged_credits });

      const recs = await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}/records?limit=200`, { key: p.member });
      expect(recs.body.records.length).toBe(quote.estimated_results);
      for (const r of recs.body.records) {
        expect(r.fields.industry).toBe("software");
        expect(r.fields.country).toBe("DE");
        expect(r.fields.domain).toMatch(/\.example$/);
        expect(r.field_meta.name.source).toBe("radar:sample");
        const e = await t.call("GET", `/workspaces/${slug}/entities/${r.entity_id}`, { key: p.member });
        expect(e.body).toMatchObject({ kind: "company", dedup_key: r.fields.domain });
      }

      const history = await t.call("GET", ws(`/credits/history?run_id=${run.id}`), { key: p.member });
      expect(history.body.entries.map((e: { type: string }) => e.type)).toEqual(["capture", "hold"]);

      const trace = await t.call("GET", ws(`/runs/${run.id}/trace`), { key: p.member });
      const types = trace.body.steps.map((s: { type: string }) => s.type);
      expect(types[0]).toBe("run.priced");
      expect(types).toContain("run.started");
      expect(types).toContain("provider.page");
      expect(types.at(-1)).toBe("run.completed");
      expect(trace.body.steps.map((s: { seq: number }) => s.seq)).toEqual(types.map((_: string, i: number) => i + 1));
      expect(events.map((e) => e.type)).toContain("radar.run_completed");

      // A second search on the same criterion and collection: everything is there already, so free.
      const again = await openSearch({ criterion_slug: "german-software-companies", collection_id: search.collection_id, max_results: 50 });
      expect(again.status).toBe(201);
      const r2 = again.body.run.id;
      const q2 = (await t.call("POST", ws(`/runs/${r2}/price`), { key: p.member, body: {} })).body.quote;
      await t.call("POST", ws(`/runs/${r2}/start`), { key: p.member });
      const done2 = (await t.call("GET", ws(`/runs/${r2}`), { key: p.member })).body;
      expect(done2).toMatchObject({ state: "completed", charged_credits: 0, released_credits: q2.max_credits });
      expect(done2.results).toMatchObject({ created: 0, updated: 0, unchanged: q2.estimated_results });
      const recs2 = await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}/records?limit=200`, { key: p.member });
      expect(recs2.body.records.length).toBe(quote.estimated_results);
    });

    test("start refuses an expired quote (QUOTE_EXPIRED) and a quote of an older criterion (QUOTE_STALE), holding nothing", async () => {
      const opened = await openSearch({
        criterion: { title: "Dutch fintech", kind: "company", filter: { industries: ["fintech"], countries: ["NL"] } },
      });
      const run = opened.body.run.id;
      await t.call("POST", ws(`/runs/${run}/price`), { key: p.member, body: { ttl_seconds: 1 } });
      await new Promise((r) => setTimeout(r, 1100));
      const before = await credits();
      const expired = await t.call("POST", ws(`/runs/${run}/start`), { key: p.member });
      expect(expired.status).toBe(409);
      expect(expired.body.error.code).toBe("QUOTE_EXPIRED");

      await t.call("POST", ws(`/runs/${run}/price`), { key: p.member, body: {} });
      const revised = await t.call("PATCH", ws("/criteria/dutch-fintech"), {
        key: p.member,
        body: { filter: { industries: ["fintech"], countries: ["NL", "BE"] } },
      });
      expect(revised.status).toBe(200);
      const stale = await t.call("POST", ws(`/runs/${run}/start`), { key: p.member });
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe("QUOTE_STALE");
      expect(await credits()).toEqual(before);
      expect((await t.call("GET", ws(`/runs/${run}`), { key: p.member })).body.state).toBe("priced");
    });

    test("each state allows its actions only: 409 CONFLICT with current_state", async () => {
      const opened = await openSearch({
        criterion: { title: "French energy", kind: "company", filter: { industries: ["energy"], countries: ["FR"] } },
      });
      const run = opened.body.run.id;
      for (const action of ["start", "reconcile"]) {
        const res = await t.call("POST", ws(`/runs/${run}/${action}`), { key: p.member });
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: "CONFLICT", current_state: "draft" });
      }
      await t.call("POST", ws(`/runs/${run}/price`), { key: p.member, body: {} });
      await t.call("POST", ws(`/runs/${run}/start`), { key: p.member });
      const twice = await t.call("POST", ws(`/runs/${run}/start`), { key: p.member });
      expect(twice.status).toBe(409);
      expect(twice.body.error.current_state).toBe("completed");
      const reprice = await t.call("POST", ws(`/runs/${run}/price`), { key: p.member, body: {} });
      expect(reprice.body.error.current_state).toBe("completed");
      // Reconciling a finished run checks it and moves nothing more.
      const before = await credits();
      const rec = await t.call("POST", ws(`/runs/${run}/reconcile`), { key: p.member });
      expect(rec.status).toBe(201);
      expect(rec.body.state).toBe("completed");
      expect(await credits()).toEqual(before);
    });

    test("price and start replay under an Idempotency-Key; another body under the key is 409 IDEMPOTENCY_KEY_REUSED", async () => {
      const opened = await openSearch({
        criterion: { title: "Spanish media", kind: "company", filter: { industries: ["media"], countries: ["ES"] } },
      });
      const run = opened.body.run.id;
      const first = await t.call("POST", ws(`/runs/${run}/price`), {
        key: p.member,
        body: { max_results: 3 },
        headers: { "idempotency-key": "p-1" },
      });
      const replay = await t.call("POST", ws(`/runs/${run}/price`), {
        key: p.member,
        body: { max_results: 3 },
        headers: { "idempotency-key": "p-1" },
      });
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.quote.id).toBe(first.body.quote.id);
      const reused = await t.call("POST", ws(`/runs/${run}/price`), {
        key: p.member,
        body: { max_results: 4 },
        headers: { "idempotency-key": "p-1" },
      });
      expect(reused.status).toBe(409);
      expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
      const s1 = await t.call("POST", ws(`/runs/${run}/start`), { key: p.member, headers: { "idempotency-key": "s-1" } });
      const s2 = await t.call("POST", ws(`/runs/${run}/start`), { key: p.member, headers: { "idempotency-key": "s-1" } });
      expect(s1.status).toBe(201);
      expect(s2.status).toBe(201);
      expect(s2.headers.get("idempotent-replayed")).toBe("true");
      const holds = await t.call("GET", ws(`/credits/history?run_id=${run}&type=hold`), { key: p.member });
      expect(holds.body.entries.length).toBe(1);
    });

    test("opening: exactly one of criterion and criterion_slug, strict bodies, a taken slug 409, unknown criterion and collection 404", async () => {
      const filter = { industries: ["logistics"] };
      expect((await openSearch({})).status).toBe(400);
      const both = await openSearch({ criterion: { title: "X", kind: "company", filter }, criterion_slug: "german-software-companies" });
      expect(both.status).toBe(400);
      const unknown = await openSearch({ criterion_slug: "german-software-companies", colour: "red" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.code).toBe("VALIDATION_FAILED");
      expect((await openSearch({ criterion: { title: "X", kind: "company", filter: { job_titles: ["cto"] } } })).status).toBe(400);
      const taken = await openSearch({ criterion: { title: "Again", slug: "german-software-companies", kind: "company", filter } });
      expect(taken.status).toBe(409);
      expect((await openSearch({ criterion_slug: "no-such-criterion" })).status).toBe(404);
      const noColl = await openSearch({
        criterion_slug: "german-software-companies",
        collection_id: "01900000-0000-7000-8000-000000000000",
      });
      expect(noColl.status).toBe(404);
      // A collection declaring a radar field with another type: 400, nothing written.
      const c = await t.call("POST", `/workspaces/${slug}/collections`, {
        key: p.member,
        body: { name: "typed", archetype: "analysis", record_schema: { fields: { domain: { type: "integer" } } } },
      });
      const clash = await openSearch({ criterion_slug: "german-software-companies", collection_id: c.body.id });
      expect(clash.status).toBe(400);
      // Service keys may write; nobody from another workspace sees anything.
      expect((await openSearch({ criterion_slug: "german-software-companies" }, p.service)).status).toBe(201);
    });

    test("an open collection gets radar's fields declared and stays open to others", async () => {
      const c = await t.call("POST", `/workspaces/${slug}/collections`, {
        key: p.member,
        body: { name: "open one", archetype: "pipeline" },
      });
      const opened = await openSearch({ criterion_slug: "german-software-companies", collection_id: c.body.id, max_results: 2 });
      expect(opened.status).toBe(201);
      const coll = await t.call("GET", `/workspaces/${slug}/collections/${c.body.id}`, { key: p.member });
      expect(coll.body.record_schema.additional_fields).toBe(true);
      expect(coll.body.record_schema.fields.domain.type).toBe("string");
      expect(coll.body.criterion_rel_slugs).toEqual(["german-software-companies"]);
      const rec = await t.call("POST", `/workspaces/${slug}/collections/${c.body.id}/records`, {
        key: p.member,
        body: { fields: { note: { any: "value" } } },
      });
      expect(rec.status).toBe(201);
    });

    test("tenancy: another workspace's run is 404 everywhere; a read-only caller cannot start", async () => {
      const opened = await openSearch({ criterion_slug: "german-software-companies", max_results: 1 });
      const run = opened.body.run.id;
      for (
        const [method, path] of [["GET", ""], ["POST", "/price"], ["POST", "/start"], ["GET", "/trace"], ["GET", "/monitor"], [
          "GET",
          "/stream",
        ]]
      ) {
        const res = await t.call(method!, `/workspaces/${other.slug}/radar/runs/${run}${path}`, {
          key: other.key,
          ...(path === "/price" ? { body: {} } : {}),
        });
        expect(res.status).toBe(404);
      }
      expect((await t.call("GET", ws("/runs/not-a-uuid"), { key: p.member })).status).toBe(404);
    });

    test("the stream replays the trace as Server-Sent Events and closes after the terminal step; Last-Event-ID resumes", async () => {
      const opened = await openSearch({ criterion_slug: "german-software-companies", max_results: 3 });
      const run = opened.body.run.id;
      await t.call("POST", ws(`/runs/${run}/price`), { key: p.member, body: {} });
      await t.call("POST", ws(`/runs/${run}/start`), { key: p.member });
      const res = await t.call("GET", ws(`/runs/${run}/stream`), { key: p.member });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const frames = String(res.body).split("\n\n").filter((f) => f.startsWith("id:"));
      const trace = (await t.call("GET", ws(`/runs/${run}/trace`), { key: p.member })).body.steps;
      expect(frames.length).toBe(trace.length);
      expect(frames.at(-1)).toContain("event: run.completed");
      expect(frames[0]).toBe(`id: 1\nevent: run.priced\ndata: ${JSON.stringify(trace[0])}`);
      const resumed = await t.call("GET", ws(`/runs/${run}/stream`), {
        key: p.member,
        headers: { "last-event-id": String(trace.length - 1) },
      });
      const rest = String(resumed.body).split("\n\n").filter((f) => f.startsWith("id:"));
      expect(rest.length).toBe(1);
      expect(rest[0]).toContain(`id: ${trace.length}\n`);
    });

    test("monitor: shown, paused and resumed idempotently; 404 without one", async () => {
      const opened = await openSearch({
        criterion_slug: "german-software-companies",
        max_results: 5,
        monitor: { interval: "daily", budget_credits: 100 },
      });
      expect(opened.status).toBe(201);
      expect(opened.body.monitor).toMatchObject({
        interval: "daily",
        state: "active",
        paused_reason: null,
        budget_credits: 100,
        spent_credits: 0,
        next_run_at: null,
      });
      const run = opened.body.run.id;
      await t.call("POST", ws(`/runs/${run}/price`), { key: p.member, body: {} });
      await t.call("POST", ws(`/runs/${run}/start`), { key: p.member });
      const m = await t.call("GET", ws(`/runs/${run}/monitor`), { key: p.member });
      expect(m.status).toBe(200);
      expect(m.body.state).toBe("active");
      expect(Date.parse(m.body.next_run_at)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
      for (let i = 0; i < 2; i++) {
        const paused = await t.call("POST", ws(`/runs/${run}/monitor/pause`), { key: p.member });
        expect(paused.status).toBe(201);
        expect(paused.body).toMatchObject({ state: "paused", paused_reason: "manual", next_run_at: null });
      }
      const resumed = await t.call("POST", ws(`/runs/${run}/monitor/resume`), { key: p.member });
      expect(resumed.body).toMatchObject({ state: "active", paused_reason: null });
      const plain = await openSearch({ criterion_slug: "german-software-companies", max_results: 1 });
      expect((await t.call("GET", ws(`/runs/${plain.body.run.id}/monitor`), { key: p.member })).status).toBe(404);
      expect((await t.call("POST", ws(`/runs/${plain.body.run.id}/monitor/pause`), { key: p.member })).status).toBe(404);
    });

    test("contact paths: quoted for free, unlocked once per person and kind (bulk and concurrent duplicates pay once), 402 when short", async () => {
      const opened = await openSearch({
        criterion: { title: "Dutch directors", kind: "person", filter: { countries: ["NL"], seniorities: ["director"] } },
        max_results: 6,
      });
      expect(opened.status).toBe(201);
      const { run, search } = opened.body;
      await t.call("POST", ws(`/runs/${run.id}/price`), { key: p.member, body: {} });
      expect((await t.call("POST", ws(`/runs/${run.id}/start`), { key: p.member })).status).toBe(201);
      const coll = search.collection_id;
      const recs = (await t.call("GET", `/workspaces/${slug}/collections/${coll}/records?limit=10`, { key: p.member })).body.records;
      expect(recs.length).toBeGreaterThanOrEqual(3);
      const [a, b, c] = recs;
      const paths = (path: string, body: unknown, key = p.member, headers: Record<string, string> = {}) =>
        t.call("POST", ws(`/collections/${coll}/contact-paths/${path}`), { key, body, headers });

      const quote = await paths("quote", { record_ids: [a.id, b.id], kinds: ["email", "linkedin"] });
      expect(quote.status).toBe(201);
      expect(quote.body.items).toEqual([
        { record_id: a.id, kind: "email", state: "available", credits: 4 },
        { record_id: a.id, kind: "linkedin", state: "available", credits: 1 },
        { record_id: b.id, kind: "email", state: "available", credits: 4 },
        { record_id: b.id, kind: "linkedin", state: "available", credits: 1 },
      ]);
      expect(quote.body.total_credits).toBe(10);

      const before = (await credits()).balance;
      const unlocked = await paths("unlock", { record_ids: [a.id], kinds: ["email", "linkedin"] });
      expect(unlocked.status).toBe(201);
      expect(unlocked.headers.get("x-credits-charged")).toBe("5");
      expect(unlocked.body.charged_credits).toBe(5);
      for (const item of unlocked.body.items) expect(item).toMatchObject({ record_id: a.id, status: "unlocked" });
      const email = unlocked.body.items.find((i: { kind: string }) => i.kind === "email").value;
      expect(email).toMatch(/@.+\.example$/);
      expect(await credits()).toMatchObject({ balance: before - 5, held: 0 });
      const rec = await t.call("GET", `/workspaces/${slug}/collections/${coll}/records/${a.id}`, { key: p.member });
      expect(rec.body.fields.email).toBe(email);
      const ent = await t.call("GET", `/workspaces/${slug}/entities/${a.entity_id}`, { key: p.member });
      expect(ent.body.attributes.email).toBe(email);

      // Again: free, with the value; the quote says unlocked.
      const again = await paths("unlock", { record_ids: [a.id], kinds: ["email"] });
      expect(again.body).toEqual({
        items: [{ record_id: a.id, kind: "email", status: "already_unlocked", credits: 0, value: email }],
        charged_credits: 0,
      });
      expect((await paths("quote", { record_ids: [a.id], kinds: ["email"] })).body.items[0].state).toBe("unlocked");

      // Twenty concurrent unlocks of b's e-mail: one pays, the others are told it is unlocked.
      const mid = (await credits()).balance;
      const racing = await Promise.all(Array.from({ length: 20 }, () => paths("unlock", { record_ids: [b.id], kinds: ["email"] })));
      expect(racing.every((r) => r.status === 201)).toBe(true);
      expect(racing.filter((r) => r.body.items[0].status === "unlocked").length).toBe(1);
      expect(racing.filter((r) => r.body.items[0].status === "already_unlocked").length).toBe(19);
      expect(new Set(racing.map((r) => r.body.items[0].value)).size).toBe(1);
      expect(await credits()).toMatchObject({ balance: mid - 4, held: 0 });

      // Short of credits: 402 with what is missing, nothing claimed or charged.
      const balance = (await credits()).balance;
      const drain = await t.call("GET", ws("/credits"), { key: p.member });
      expect(drain.body.available).toBe(balance);
      if (balance > 0) {
        await t.core.stores.creditLedger.append({
          workspace_id: (await t.core.stores.workspaces.getBySlug(slug))!.id,
          id: crypto.randomUUID(),
          at: new Date().toISOString(),
          op: { type: "debit", amount: balance },
        });
      }
      const short = await paths("unlock", { record_ids: [c.id], kinds: ["phone"] });
      expect(short.status).toBe(402);
      expect(short.body.error).toMatchObject({ code: "INSUFFICIENT_CREDITS", required: 8, available: 0, shortfall: 8 });
      expect((await paths("quote", { record_ids: [c.id], kinds: ["phone"] })).body.items[0].state).toBe("available");
      await grant(1000);

      // Bad input and tenancy.
      expect((await paths("unlock", { record_ids: [a.id], kinds: ["fax"] })).status).toBe(400);
      expect((await paths("unlock", { record_ids: [], kinds: ["email"] })).status).toBe(400);
      expect((await paths("unlock", { record_ids: [a.id], kinds: ["email"], extra: 1 })).status).toBe(400);
      expect((await paths("unlock", { record_ids: ["01900000-0000-7000-8000-000000000000"], kinds: ["email"] })).status).toBe(404);
      const foreign = await t.call("POST", `/workspaces/${other.slug}/radar/collections/${coll}/contact-paths/unlock`, {
        key: other.key,
        body: { record_ids: [a.id], kinds: ["email"] },
      });
      expect(foreign.status).toBe(404);
      // A company record has no contact paths to sell.
      const companyColl = (await openSearch({ criterion_slug: "german-software-companies", max_results: 1 })).body;
      await t.call("POST", ws(`/runs/${companyColl.run.id}/price`), { key: p.member, body: {} });
      await t.call("POST", ws(`/runs/${companyColl.run.id}/start`), { key: p.member });
      const co =
        (await t.call("GET", `/workspaces/${slug}/collections/${companyColl.search.collection_id}/records?limit=1`, { key: p.member })).body
          .records[0];
      const none = await t.call("POST", ws(`/collections/${companyColl.search.collection_id}/contact-paths/unlock`), {
        key: p.member,
        body: { record_ids: [co.id], kinds: ["email"] },
      });
      expect(none.body).toEqual({
        items: [{ record_id: co.id, kind: "email", status: "unavailable", credits: 0, value: null }],
        charged_credits: 0,
      });
    });

    test("enrich: a completed run's results and their companies get profiles, charged per hit once; only a completed run", async () => {
      const opened = await openSearch({
        criterion: { title: "Swedish owners", kind: "person", filter: { countries: ["SE"], seniorities: ["owner"] } },
        max_results: 3,
      });
      const { run } = opened.body;
      const early = await t.call("POST", ws(`/runs/${run.id}/enrich`), { key: p.member });
      expect(early.status).toBe(409);
      expect(early.body.error.current_state).toBe("draft");
      await t.call("POST", ws(`/runs/${run.id}/price`), { key: p.member, body: {} });
      await t.call("POST", ws(`/runs/${run.id}/start`), { key: p.member });
      const done = (await t.call("GET", ws(`/runs/${run.id}`), { key: p.member })).body;
      const n = done.results.created;
      expect(n).toBeGreaterThan(0);

      const before = (await credits()).balance;
      const people = await t.call("POST", ws(`/runs/${run.id}/enrich`), { key: p.member, headers: { "idempotency-key": "enrich-1" } });
      expect(people.status).toBe(201);
      expect(people.body).toEqual({ enriched: n, skipped: 0, missed: 0, charged_credits: n * 3 });
      expect(people.headers.get("x-credits-charged")).toBe(String(n * 3));
      expect(await credits()).toMatchObject({ balance: before - n * 3, held: 0 });
      const replay = await t.call("POST", ws(`/runs/${run.id}/enrich`), { key: p.member, headers: { "idempotency-key": "enrich-1" } });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      const again = await t.call("POST", ws(`/runs/${run.id}/enrich`), { key: p.member });
      expect(again.body).toEqual({ enriched: 0, skipped: n, missed: 0, charged_credits: 0 });

      const recs =
        (await t.call("GET", `/workspaces/${slug}/collections/${opened.body.search.collection_id}/records?limit=10`, { key: p.member }))
          .body.records;
      const person = (await t.call("GET", `/workspaces/${slug}/entities/${recs[0].entity_id}`, { key: p.member })).body;
      expect(typeof person.attributes.enriched_at).toBe("string");
      expect(person.attributes.profile).toBeTruthy();

      const companies = await t.call("POST", ws(`/runs/${run.id}/enrich/companies`), { key: p.member });
      expect(companies.status).toBe(201);
      expect(companies.body.enriched).toBeGreaterThan(0);
      expect(companies.body.charged_credits).toBe(companies.body.enriched * 1);
      const linked = (await t.call("GET", `/workspaces/${slug}/entities/${recs[0].entity_id}`, { key: p.member })).body;
      const employer = (await t.call("GET", `/workspaces/${slug}/entities/${linked.attributes.company_entity_id}`, { key: p.member })).body;
      expect(employer).toMatchObject({ kind: "company", dedup_key: recs[0].fields.company_domain });
      expect(typeof employer.attributes.enriched_at).toBe("string");
      expect((await t.call("POST", ws(`/runs/${run.id}/enrich/companies`), { key: p.member })).body.charged_credits).toBe(0);
    });

    test("monitor webhook: signed entities_changed marks the monitor's records drifted once; bad signatures are 401 and change nothing", async () => {
      const opened = await openSearch({
        criterion_slug: "german-software-companies",
        max_results: 2,
        monitor: { interval: "weekly", budget_credits: 10 },
      });
      const { run, monitor, search } = opened.body;
      await t.call("POST", ws(`/runs/${run.id}/price`), { key: p.member, body: {} });
      await t.call("POST", ws(`/runs/${run.id}/start`), { key: p.member });
      const recs =
        (await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}/records?limit=10`, { key: p.member })).body.records;
      expect(recs.length).toBe(2);
      const target = recs[0];
      const body = JSON.stringify({
        type: "monitor.entities_changed",
        data: { monitor_id: monitor.id, entities: [{ kind: "company", dedup_key: target.fields.domain }] },
      });
      const send = async (id: string, opts: { secret?: string; ts?: number; raw?: string } = {}) => {
        const ts = String(opts.ts ?? Math.floor(Date.now() / 1000));
        const raw = opts.raw ?? body;
        const sig = await standardWebhookSignature(opts.secret ?? WEBHOOK_SECRET, id, ts, new TextEncoder().encode(raw));
        return t.call("POST", "/webhooks/radar/monitor", {
          rawBody: raw,
          headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": sig },
        });
      };
      const forged = await send("msg_1", { secret: "whsec_" + btoa("another-secret-entirely-0123456789") });
      expect(forged.status).toBe(401);
      expect(forged.body.error.code).toBe("INVALID_SIGNATURE");
      expect((await send("msg_1", { ts: Math.floor(Date.now() / 1000) - 301 })).status).toBe(401);
      expect((await t.call("POST", "/webhooks/radar/monitor", { rawBody: body, headers: { "content-type": "application/json" } })).status)
        .toBe(401);
      const stillClean = await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}/records/${target.id}`, {
        key: p.member,
      });
      expect(stillClean.body.drifted).toBe(false);

      const applied = await send("msg_1");
      expect(applied.status).toBe(200);
      expect(applied.body).toEqual({ status: "applied", drifted: 1 });
      const drifted = await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}/records/${target.id}`, {
        key: p.member,
      });
      expect(drifted.body.drifted).toBe(true);
      const untouched = await t.call("GET", `/workspaces/${slug}/collections/${search.collection_id}/records/${recs[1].id}`, {
        key: p.member,
      });
      expect(untouched.body.drifted).toBe(false);
      expect((await send("msg_1")).body).toEqual({ status: "duplicate", drifted: 0 });
      expect((await send("msg_2", { raw: JSON.stringify({ type: "something.else", data: {} }) })).body).toEqual({
        status: "ignored",
        drifted: 0,
      });
    });
  });
}
