import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";
import type { Stores } from "../../core/stores.ts";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";

/** The topic API, run over each store backend (tests/api/topics.test.ts calls it). */
export function runTopicApiSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    const ws = "/workspaces/kbase";
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "kbase");
    });

    async function create(body: Record<string, unknown>, key = p.member) {
      const res = await t.call("POST", `${ws}/topics`, { key, body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    const act = (slug: string, action: string, key: string, body?: unknown) =>
      t.call("POST", `${ws}/topics/${slug}/${action}`, { key, body });

    describe("topics: create and read", () => {
      test("a new topic is a Note (draft) with its trust verdict, a derived slug and an ETag", async () => {
        const res = await t.call("POST", `${ws}/topics`, {
          key: p.member,
          body: { title: "Deploying the API", body: "# Steps", tags: ["Ops Team", "ops  team", "API"] },
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({
          slug: "deploying-the-api",
          status: "draft",
          trust: "draft",
          classification: { status: "draft" },
          governance: { authoritative: false, approved_by: null, approved_at: null },
          approved_via: null,
          stale: false,
          drifted: false,
          tags: ["api", "ops-team"],
          origin: "manual",
          kind: "note",
          version: 1,
          body: "# Steps",
        });
        expect(res.headers.get("etag")).toBe('"1"');
        const again = await create({ title: "Deploying the API" });
        expect(again.slug).toBe("deploying-the-api-2");
        const read = await t.call("GET", `${ws}/topics/deploying-the-api`, { key: p.service });
        expect(read.status).toBe(200);
        expect(read.body).toMatchObject({ id: res.body.id, body: "# Steps" });
      });

      test("status: proposed puts it up for review at once; a faceless key's topic is origin auto", async () => {
        const topic = await create({ title: "Proposed at once", status: "proposed" }, p.service);
        expect(topic).toMatchObject({ status: "proposed", trust: "proposed", origin: "auto", author_id: null });
      });

      test("a chosen slug that is taken is 409; a reserved one or one that is not a slug is 400", async () => {
        await create({ title: "x", slug: "chosen" });
        expect((await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "y", slug: "chosen" } })).status).toBe(409);
        expect((await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "y", slug: "search" } })).status).toBe(400);
        expect((await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "y", slug: "Not A Slug" } })).status).toBe(400);
        expect((await create({ title: "Search" })).slug).toBe("search-2");
      });

      test("bad bodies are 400 VALIDATION_FAILED and create nothing", async () => {
        const before = (await t.call("GET", `${ws}/topics?status=draft&limit=200`, { key: p.owner })).body.total;
        for (
          const body of [
            { title: "x", colour: "red" },
            { title: "x", status: "reviewed" },
            { title: "x", status: "archived" },
            { title: "" },
            { body: "no title" },
            { title: "x", tags: ["   "] },
            { title: "x", tags: ["t".repeat(65)] },
            { title: "x", kind: "essay" },
            { title: "x", area_id: "01939a3e-0000-7000-8000-000000000000" },
            { title: "x", source_url: "ftp://nope" },
            { title: "x", anchors: ["/abs/path"] },
            { title: "x", anchors: ["src/*.ts "] },
            { title: "nul \u0000 inside" },
            { title: "x", tags: ["bell\u0007"] },
          ]
        ) {
          const res = await t.call("POST", `${ws}/topics`, { key: p.member, body });
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.error.code).toBe("VALIDATION_FAILED");
        }
        expect((await t.call("GET", `${ws}/topics?status=draft&limit=200`, { key: p.owner })).body.total).toBe(before);
      });

      test("text holding U+0000 is refused with a clear 400 on every backend", async () => {
        const res = await t.call("POST", `${ws}/topics`, {
          key: p.member,
          rawBody: '{"title":"a\\u0000b"}',
          headers: { "content-type": "application/json" },
        });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringContaining("U+0000") });
        expect((await t.call("GET", `${ws}/tags`, { key: p.member })).status).toBe(200);
        expect((await t.call("PATCH", `${ws}/tags/a%00b`, { key: p.owner, body: { description: "x" } })).status).toBe(400);
      });

      test("another workspace's key gets 404 for the workspace, never the topic", async () => {
        await create({ title: "Internal", slug: "internal" });
        const other = await t.bootstrap("elsewhere");
        const res = await t.call("GET", `${ws}/topics/internal`, { key: other.key });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toContain("Workspace");
        expect((await t.call("GET", "/workspaces/elsewhere/topics/internal", { key: other.key })).status).toBe(404);
      });
    });

    describe("topics: edits with optimistic concurrency", () => {
      test("PATCH with a stale If-Match or expected_version is 409 VERSION_CONFLICT and writes nothing", async () => {
        const topic = await create({ title: "Edit me", body: "one" });
        const ok = await t.call("PATCH", `${ws}/topics/${topic.slug}`, {
          key: p.member,
          body: { body: "two" },
          headers: { "if-match": '"1"' },
        });
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ body: "two", version: 2 });
        expect(ok.headers.get("etag")).toBe('"2"');
        const stale = await t.call("PATCH", `${ws}/topics/${topic.slug}`, {
          key: p.member,
          body: { body: "three" },
          headers: { "if-match": '"1"' },
        });
        expect(stale.status).toBe(409);
        expect(stale.body.error).toMatchObject({ code: "VERSION_CONFLICT", current_version: 2 });
        const staleBody = await t.call("PATCH", `${ws}/topics/${topic.slug}`, {
          key: p.member,
          body: { body: "three", expected_version: 1 },
        });
        expect(staleBody.status).toBe(409);
        const mismatch = await t.call("PATCH", `${ws}/topics/${topic.slug}`, {
          key: p.member,
          body: { body: "x", expected_version: 2 },
          headers: { "if-match": '"3"' },
        });
        expect(mismatch.status).toBe(400);
        const garbage = await t.call("PATCH", `${ws}/topics/${topic.slug}`, {
          key: p.member,
          body: { body: "x" },
          headers: { "if-match": "yesterday" },
        });
        expect(garbage.status).toBe(400);
        expect((await t.call("GET", `${ws}/topics/${topic.slug}`, { key: p.member })).body).toMatchObject({ body: "two", version: 2 });
      });

      test("concurrent PATCHes against one version: exactly one applies", async () => {
        const topic = await create({ title: "Race" });
        const results = await Promise.all(
          Array.from(
            { length: 5 },
            (_, i) => t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { body: `w${i}`, expected_version: 1 } }),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      });

      test("history=true lists revisions newest first", async () => {
        const topic = await create({ title: "Versioned", body: "a" });
        await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { body: "b" } });
        await act(topic.slug, "propose", p.member);
        const res = await t.call("GET", `${ws}/topics/${topic.slug}?history=true`, { key: p.member });
        expect(res.body.history.map((h: any) => [h.version, h.type, h.body])).toEqual([
          [3, "topic.proposed", "b"],
          [2, "topic.updated", "b"],
          [1, "topic.created", "a"],
        ]);
      });
    });

    describe("topics: governance", () => {
      test("draft → proposed → reviewed by an admin, stamped human; then unvouch, vouch-ack, archive, restore", async () => {
        const topic = await create({ title: "Lifecycle" });
        expect((await act(topic.slug, "propose", p.member)).body).toMatchObject({ status: "proposed", trust: "proposed" });
        const approved = await act(topic.slug, "approve", p.admin);
        expect(approved.status).toBe(201);
        expect(approved.body).toMatchObject({
          status: "reviewed",
          trust: "reviewed",
          classification: { status: "reviewed" },
          governance: { authoritative: true },
          approved_via: "human",
        });
        expect(approved.body.governance.approved_by).toBeString();
        const unvouched = await act(topic.slug, "unvouch", p.owner);
        expect(unvouched.body).toMatchObject({
          status: "proposed",
          governance: { authoritative: false, approved_by: null },
          approved_via: null,
        });
        await act(topic.slug, "approve", p.owner);
        const vouched = await act(topic.slug, "vouch-ack", p.owner);
        expect(vouched.body).toMatchObject({ status: "reviewed", stale: false });
        expect((await act(topic.slug, "archive", p.member)).body).toMatchObject({ status: "archived", trust: "draft" });
        expect((await act(topic.slug, "restore", p.admin)).body).toMatchObject({ status: "draft" });
      });

      test("an illegal transition is 409 naming the current state; members and faceless keys get 403 on owner/admin actions", async () => {
        const topic = await create({ title: "Rules" });
        const illegal = await act(topic.slug, "reject", p.owner);
        expect(illegal.status).toBe(409);
        expect(illegal.body.error).toMatchObject({ code: "CONFLICT", current_status: "draft", allowed_from: ["proposed"] });
        expect((await act(topic.slug, "vouch-ack", p.owner)).status).toBe(409);
        for (const action of ["approve", "reject", "unvouch", "vouch-ack", "restore"]) {
          expect((await act(topic.slug, action, p.member)).status, action).toBe(403);
          expect((await act(topic.slug, action, p.service)).status, action).toBe(403);
        }
        expect((await act(topic.slug, "propose", p.service)).status).toBe(201);
        expect((await act(topic.slug, "reject", p.admin)).body.status).toBe("draft");
        await act(topic.slug, "archive", p.member);
        expect((await act(topic.slug, "archive", p.member)).status).toBe(409);
        expect((await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.owner, body: { body: "x" } })).status).toBe(409);
        expect((await act(topic.slug, "approve", p.owner, { expected_version: 1 })).status).toBe(409);
        expect((await act(topic.slug, "restore", p.owner, { colour: 1 })).status).toBe(400);
      });

      test("a reviewed topic goes stale after the workspace's review interval, and vouch-ack refreshes it", async () => {
        const topic = await create({ title: "Ages" });
        await act(topic.slug, "approve", p.owner);
        const realClock = t.core.clock;
        try {
          t.core.clock = { now: () => new Date(Date.now() + 91 * 86_400_000) };
          expect((await t.call("GET", `${ws}/topics/${topic.slug}`, { key: p.member })).body.stale).toBe(true);
          const staleList = await t.call("GET", `${ws}/topics?stale=true&view=compact`, { key: p.member });
          expect(staleList.body.topics.map((x: any) => x.slug)).toContain(topic.slug);
          expect((await act(topic.slug, "vouch-ack", p.owner)).body.stale).toBe(false);
          const after = await t.call("GET", `${ws}/topics?stale=true&view=compact`, { key: p.member });
          expect(after.body.topics.map((x: any) => x.slug)).not.toContain(topic.slug);
        } finally {
          t.core.clock = realClock;
        }
      });

      test("move keeps the old slug answering; merge archives the source into the target", async () => {
        const a = await create({ title: "Move me", tags: ["alpha"], body: "A body" });
        expect((await t.call("POST", `${ws}/topics/${a.slug}/move`, { key: p.member, body: { slug: "moved-here" } })).status).toBe(403);
        const moved = await t.call("POST", `${ws}/topics/${a.slug}/move`, { key: p.admin, body: { slug: "moved-here" } });
        expect(moved.status).toBe(201);
        const viaOld = await t.call("GET", `${ws}/topics/${a.slug}`, { key: p.member });
        expect(viaOld.body).toMatchObject({ slug: "moved-here", redirected_from: a.slug });
        const target = await create({ title: "Target", tags: ["beta"], body: "T body" });
        await act(target.slug, "approve", p.owner);
        const merged = await t.call("POST", `${ws}/topics/moved-here/merge`, { key: p.owner, body: { target: target.slug } });
        expect(merged.status).toBe(201);
        expect(merged.body).toMatchObject({ slug: target.slug, tags: ["alpha", "beta"], status: "reviewed", approved_via: "human" });
        expect(merged.body.body).toContain("## Merged from: Move me\n\nA body");
        const source = await t.call("GET", `${ws}/topics/moved-here`, { key: p.member });
        expect(source.body).toMatchObject({ slug: target.slug, redirected_from: "moved-here" });
        const archived = await t.call("GET", `${ws}/topics?status=archived&view=compact`, { key: p.member });
        expect(archived.body.topics.map((x: any) => x.id)).toContain(a.id);
        expect((await t.call("POST", `${ws}/topics/${target.slug}/merge`, { key: p.owner, body: { target: target.slug } })).status).toBe(
          400,
        );
      });

      test("delete: owner/admin, or the author of their own draft", async () => {
        const mine = await create({ title: "Mine" }, p.member);
        const reviewed = await create({ title: "Reviewed one" }, p.member);
        await act(reviewed.slug, "approve", p.owner);
        expect((await t.call("DELETE", `${ws}/topics/${reviewed.slug}`, { key: p.member })).status).toBe(403);
        expect((await t.call("DELETE", `${ws}/topics/${mine.slug}`, { key: p.member })).body).toEqual({ id: mine.id, deleted: true });
        expect((await t.call("GET", `${ws}/topics/${mine.slug}`, { key: p.member })).status).toBe(404);
        expect((await t.call("DELETE", `${ws}/topics/${reviewed.slug}`, { key: p.admin, headers: { "if-match": '"1"' } })).status).toBe(
          409,
        );
        expect((await t.call("DELETE", `${ws}/topics/${reviewed.slug}`, { key: p.admin })).status).toBe(200);
        const events = await t.call("GET", `${ws}/topics/events?type=topic.deleted`, { key: p.member });
        expect(events.body.events.map((e: any) => e.topic_id)).toEqual([reviewed.id, mine.id]);
      });
    });

    describe("topics: lists, search, timeline", () => {
      let s: TestApp;
      let q: Personas;
      const w = "/workspaces/lists";
      beforeAll(async () => {
        s = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
        q = await personas(s, "lists");
        const mk = async (body: Record<string, unknown>) => (await s.call("POST", `${w}/topics`, { key: q.owner, body })).body;
        const repo = (await s.call("POST", `${w}/repos`, { key: q.owner, body: { provider: "github", full_name: "acme/api" } })).body;
        const a = await mk({
          title: "Billing retries",
          body: "How billing retries work",
          tags: ["billing"],
          kind: "doc",
          repo_id: repo.id,
        });
        await s.call("POST", `${w}/topics/${a.slug}/approve`, { key: q.owner });
        await mk({
          title: "Retry budget",
          body: "We retry billing calls three times",
          tags: ["billing", "sre"],
          status: "proposed",
          source_url: "https://wiki.example.com/r",
        });
        await mk({ title: "Draft about billing", body: "notes" });
        const old = await mk({ title: "Old billing doc", status: "proposed" });
        await s.call("POST", `${w}/topics/${old.slug}/archive`, { key: q.owner });
        await s.call("POST", `${w}/topics`, { key: q.service, body: { title: "Generated map of billing" } });
      });

      test("GET /topics ranks by trust, hides archived, filters, and projects views", async () => {
        const all = await s.call("GET", `${w}/topics`, { key: q.member });
        expect(all.body.total).toBe(4);
        expect(all.body.topics[0]).toMatchObject({ title: "Billing retries", trust: "reviewed" });
        expect(all.body.topics[0].body).toBeUndefined();
        expect(all.body.topics[0].excerpt).toBe("How billing retries work");
        const titles = async (query: string) =>
          (await s.call("GET", `${w}/topics?${query}`, { key: q.member })).body.topics.map((x: any) => x.title);
        expect(await titles("tags=SRE,nope")).toEqual(["Retry budget"]);
        expect(await titles("tags=unknown-tag")).toEqual([]);
        expect(await titles("docs=true")).toEqual(["Billing retries"]);
        expect(await titles("has_external=true")).toEqual(["Retry budget"]);
        expect(await titles("auto=true")).toEqual(["Generated map of billing"]);
        expect((await titles("manual=true")).length).toBe(3);
        expect(await titles("status=archived")).toEqual(["Old billing doc"]);
        const repoId = (await s.call("GET", `${w}/repos`, { key: q.member })).body.repos[0].id;
        expect(await titles(`repo=${repoId}`)).toEqual(["Billing retries"]);
        const compact = await s.call("GET", `${w}/topics?view=compact&limit=1`, { key: q.member });
        expect(Object.keys(compact.body.topics[0]).sort()).toEqual(
          ["classification", "drifted", "id", "slug", "stale", "status", "title", "trust", "updated_at", "version"].sort(),
        );
        expect(compact.body).toMatchObject({ total: 4, has_more: true });
      });

      test("GET /topics rejects what it cannot mean with 400", async () => {
        for (
          const query of [
            "limit=201",
            "limit=0",
            "offset=-1",
            "status=gone",
            "stale=yes",
            "view=everything",
            "auto=true&manual=true",
            "repo=nope",
            "colour=red",
          ]
        ) {
          expect((await s.call("GET", `${w}/topics?${query}`, { key: q.member })).status, query).toBe(400);
        }
      });

      test("GET /topics/search ranks title over tags over body, excludes notes unless asked, never returns archived", async () => {
        const res = await s.call("GET", `${w}/topics/search?q=billing+retries`, { key: q.member });
        expect(res.status).toBe(200);
        expect(res.body.topics.map((x: any) => x.title)).toEqual(["Billing retries"]);
        const billing = await s.call("GET", `${w}/topics/search?q=BILLING`, { key: q.member });
        expect(billing.body.topics.map((x: any) => x.title)).toEqual(["Billing retries", "Retry budget"]);
        const notes = await s.call("GET", `${w}/topics/search?q=billing&include_notes=true`, { key: q.member });
        expect(notes.body.topics.map((x: any) => x.title)).toEqual([
          "Billing retries",
          "Generated map of billing",
          "Draft about billing",
          "Retry budget",
        ]);
        expect(notes.body.topics.map((x: any) => x.title)).not.toContain("Old billing doc");
        const tagged = await s.call("GET", `${w}/topics/search?q=billing&tags=sre`, { key: q.member });
        expect(tagged.body.topics.map((x: any) => x.title)).toEqual(["Retry budget"]);
        expect((await s.call("GET", `${w}/topics/search?q=billing&limit=1`, { key: q.member })).body).toMatchObject({
          total: 2,
          has_more: true,
        });
        expect((await s.call("GET", `${w}/topics/search?q=%21%21`, { key: q.member })).body.total).toBe(0);
        for (const query of ["", "q=", "q=x&limit=101", "q=a+b+c+d+e+f+g+h+i", "q=x&include_notes=maybe"]) {
          expect((await s.call("GET", `${w}/topics/search?${query}`, { key: q.member })).status, query).toBe(400);
        }
      });

      test("GET /topics/events is the timeline, newest first, filtered by type and repo", async () => {
        const all = await s.call("GET", `${w}/topics/events?limit=3`, { key: q.member });
        expect(all.body.total).toBe(7);
        expect(all.body.events[0]).toMatchObject({ type: "topic.created", topic_slug: "generated-map-of-billing", via: "agent" });
        expect(all.body.events[0].snapshot).toBeUndefined();
        const approvals = await s.call("GET", `${w}/topics/events?type=topic.approved`, { key: q.member });
        expect(approvals.body.events.map((e: any) => e.topic_slug)).toEqual(["billing-retries"]);
        const repoId = (await s.call("GET", `${w}/repos`, { key: q.member })).body.repos[0].id;
        expect((await s.call("GET", `${w}/topics/events?repo_id=${repoId}`, { key: q.member })).body.total).toBe(2);
        expect((await s.call("GET", `${w}/topics/events?type=topic.nope`, { key: q.member })).status).toBe(400);
      });
    });

    describe("tags", () => {
      test("list most-used first with counts; create is idempotent and merges the description", async () => {
        await create({ title: "Tagged 1", tags: ["Infra", "db"] });
        await create({ title: "Tagged 2", tags: ["infra"] });
        const created = await t.call("POST", `${ws}/tags`, { key: p.member, body: { name: "  Fresh   Tag " } });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ name: "fresh-tag", description: null, topic_count: 0 });
        const again = await t.call("POST", `${ws}/tags`, { key: p.member, body: { name: "fresh-tag", description: "New" } });
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({ name: "fresh-tag", description: "New" });
        const list = await t.call("GET", `${ws}/tags?limit=200`, { key: p.member });
        const infra = list.body.tags.find((x: any) => x.name === "infra");
        expect(infra.topic_count).toBe(2);
        const counts = list.body.tags.map((x: any) => x.topic_count);
        expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
        expect((await t.call("POST", `${ws}/tags`, { key: p.member, body: { name: "x", extra: 1 } })).status).toBe(400);
      });

      test("rename rewrites every topic (owner/admin); delete detaches everywhere", async () => {
        const one = await create({ title: "Rename 1", tags: ["legacy-name"] });
        expect((await t.call("PATCH", `${ws}/tags/legacy-name`, { key: p.member, body: { name: "new name" } })).status).toBe(403);
        const renamed = await t.call("PATCH", `${ws}/tags/legacy-name`, {
          key: p.admin,
          body: { name: "New Name", description: "Renamed" },
        });
        expect(renamed.status).toBe(200);
        expect(renamed.body).toMatchObject({ name: "new-name", description: "Renamed", topic_count: 1 });
        expect((await t.call("GET", `${ws}/topics/${one.slug}`, { key: p.member })).body).toMatchObject({ tags: ["new-name"], version: 2 });
        expect((await t.call("PATCH", `${ws}/tags/legacy-name`, { key: p.admin, body: { name: "other" } })).status).toBe(404);
        expect((await t.call("DELETE", `${ws}/tags/new-name`, { key: p.member })).status).toBe(403);
        expect((await t.call("DELETE", `${ws}/tags/New%20Name`, { key: p.owner })).body).toEqual({
          name: "new-name",
          deleted: true,
          topics: 1,
        });
        expect((await t.call("GET", `${ws}/topics/${one.slug}`, { key: p.member })).body.tags).toEqual([]);
        expect((await t.call("DELETE", `${ws}/tags/new-name`, { key: p.owner })).status).toBe(404);
      });
    });

    describe("/watchers: the deprecated alias", () => {
      test("answers every topic path identically, with Deprecation, Sunset and a successor Link, errors included", async () => {
        const topic = await create({ title: "Alias check" });
        const canonical = await t.call("GET", `${ws}/topics/${topic.slug}?view=compact`, { key: p.member });
        const alias = await t.call("GET", `${ws}/watchers/${topic.slug}?view=compact`, { key: p.member });
        expect(alias.status).toBe(200);
        expect(alias.body).toEqual(canonical.body);
        expect(canonical.headers.get("deprecation")).toBeNull();
        expect(alias.headers.get("deprecation")).toBe(`@${Date.parse("2026-11-22T00:00:00Z") / 1000}`);
        expect(alias.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
        expect(canonical.headers.get("sunset")).toBeNull();
        expect(alias.headers.get("link")).toBe(`</api/v1${ws}/topics/${topic.slug}?view=compact>; rel="successor-version"`);
        const proposed = await t.call("POST", `${ws}/watchers/${topic.slug}/propose`, { key: p.member });
        expect(proposed.body.status).toBe("proposed");
        const missing = await t.call("GET", `${ws}/watchers/no-such-topic`, { key: p.member });
        expect(missing.status).toBe(404);
        expect(missing.headers.get("deprecation")).toMatch(/^@\d+$/);
        expect((await t.call("GET", `${ws}/watchers/search?q=alias`, { key: p.member })).status).toBe(200);
        const invalid = await t.call("GET", `${ws}/watchers?limit=999`, { key: p.member });
        expect(invalid.status).toBe(400);
        expect(invalid.headers.get("deprecation")).toMatch(/^@\d+$/);
        expect(invalid.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
        expect(missing.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
        const anonymous = await t.call("GET", `${ws}/watchers`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
      });

      test("OpenAPI documents both, the alias as deprecated", async () => {
        const spec = (await t.call("GET", "/openapi.json")).body;
        expect(spec.paths["/api/v1/workspaces/{slug}/topics/{topic}/approve"].post).toBeDefined();
        expect(spec.paths["/api/v1/workspaces/{slug}/watchers/{topic}/approve"].post.deprecated).toBe(true);
        expect(spec.paths["/api/v1/workspaces/{slug}/topics/search"].get.deprecated).toBeUndefined();
      });
    });
  });
}
