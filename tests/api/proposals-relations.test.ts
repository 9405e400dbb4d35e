import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";
import type { Stores } from "../../core/stores.ts";
import type { WorkspaceEvent } from "../../core/events/event.ts";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";

/** Suggested edits, relations and the graph over HTTP (ADR 009), on the reference and the embedded SQL store. */
function runProposalRelationApiSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    const ws = "/workspaces/links";
    const events: WorkspaceEvent[] = [];
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "links");
      const id = (await t.call("GET", ws, { key: p.owner })).body.id;
      t.core.events!.subscribe(id, (e) => void events.push(e));
    });

    async function create(body: Record<string, unknown>, key = p.member) {
      const res = await t.call("POST", `${ws}/topics`, { key, body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }
    const read = async (slug: string) => (await t.call("GET", `${ws}/topics/${slug}`, { key: p.member })).body;
    const propose = (slug: string, body: unknown, key = p.member, base = "topics") =>
      t.call("POST", `${ws}/${base}/${slug}/proposals`, { key, body });
    const decide = (slug: string, id: string, action: "merge" | "reject", key = p.owner, base = "topics") =>
      t.call("POST", `${ws}/${base}/${slug}/proposals/${id}/${action}`, { key });
    const relate = (slug: string, body: unknown, key = p.member, base = "topics") =>
      t.call("POST", `${ws}/${base}/${slug}/relations`, { key, body });
    const relations = async (slug: string) =>
      (await t.call("GET", `${ws}/topics/${slug}/relations`, { key: p.member })).body.relations as any[];

    describe("suggested edits", () => {
      test("a member opens one on a reviewed topic; reads keep the reviewed text until an owner merges it", async () => {
        const topic = await create({ title: "Deploy guide", body: "Reviewed text", tags: ["ops"] });
        await t.call("POST", `${ws}/topics/${topic.slug}/approve`, { key: p.owner });
        const opened = await propose(topic.slug, {
          summary: "Add the rollback step",
          patch: { body: "Reviewed text\n\nRollback: ...", tags: ["Ops", "Run Book"] },
        });
        expect(opened.status).toBe(201);
        expect(opened.body).toMatchObject({
          topic_id: topic.id,
          topic_slug: topic.slug,
          summary: "Add the rollback step",
          patch: { tags: ["ops", "run-book"] },
          base_version: 2,
          status: "open",
          via: "human",
          decided_at: null,
          decided_by: null,
          merged_version: null,
        });
        expect(opened.body.author_id).toBeString();
        const during = await read(topic.slug);
        expect(during).toMatchObject({ body: "Reviewed text", status: "reviewed", trust: "reviewed", version: 2 });

        const queue = await t.call("GET", `${ws}/topics/proposals`, { key: p.member });
        expect(queue.status).toBe(200);
        expect(queue.body.proposals.map((x: any) => x.id)).toContain(opened.body.id);
        const mine = await t.call("GET", `${ws}/topics/${topic.slug}/proposals`, { key: p.member });
        expect(mine.body).toMatchObject({ total: 1, has_more: false, proposals: [{ id: opened.body.id }] });

        const merged = await decide(topic.slug, opened.body.id, "merge", p.admin);
        expect(merged.status).toBe(201);
        expect(merged.body.proposal).toMatchObject({ id: opened.body.id, status: "merged", merged_version: 3 });
        expect(merged.body.proposal.decided_by).toBeString();
        expect(merged.body.topic).toMatchObject({
          body: "Reviewed text\n\nRollback: ...",
          tags: ["ops", "run-book"],
          version: 3,
          status: "reviewed",
          approved_via: "human",
        });
        expect(merged.headers.get("etag")).toBe('"3"');
        expect(await read(topic.slug)).toMatchObject({ body: "Reviewed text\n\nRollback: ...", version: 3 });
        const revision = (await t.call("GET", `${ws}/topics/events?type=topic.updated`, { key: p.member })).body.events.find((e: any) =>
          e.topic_id === topic.id
        );
        expect(revision.data).toMatchObject({ proposal_id: opened.body.id, fields: ["body", "tags"] });

        const after = await t.call("GET", `${ws}/topics/proposals`, { key: p.member });
        expect(after.body.proposals.map((x: any) => x.id)).not.toContain(opened.body.id);
        expect((await t.call("GET", `${ws}/topics/${topic.slug}/proposals?status=merged`, { key: p.member })).body.total).toBe(1);
        expect((await t.call("GET", `${ws}/topics/${topic.slug}/proposals?status=open`, { key: p.member })).body.total).toBe(0);
        expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["proposal.opened", "proposal.merged"]));
      });

      test("an agent may open one; null clears a nullable field; the queue is oldest first", async () => {
        const topic = await create({ title: "Mirrored page", source_url: "https://wiki.example.com/x" });
        const first = await propose(topic.slug, { summary: "Drop the mirror", patch: { source_url: null } }, p.service);
        expect(first.status).toBe(201);
        expect(first.body).toMatchObject({ via: "agent", author_id: null, patch: { source_url: null } });
        const second = await propose(topic.slug, { summary: "Make it a doc", patch: { kind: "doc" } }, p.service);
        const queue = (await t.call("GET", `${ws}/topics/proposals?limit=200`, { key: p.member })).body.proposals.map((x: any) => x.id);
        expect(queue.indexOf(first.body.id)).toBeLessThan(queue.indexOf(second.body.id));
        const newestFirst = (await t.call("GET", `${ws}/topics/${topic.slug}/proposals`, { key: p.member })).body.proposals.map((x: any) =>
          x.id
        );
        expect(newestFirst).toEqual([second.body.id, first.body.id]);
        const merged = await decide(topic.slug, first.body.id, "merge");
        expect(merged.body.topic).toMatchObject({ source_url: null, version: 2 });
        // The second was made against version 1 and touches another field: it merges cleanly.
        expect((await decide(topic.slug, second.body.id, "merge")).body.topic).toMatchObject({ kind: "doc", source_url: null, version: 3 });
      });

      test("null removes every field it names (RFC 7396): lists empty, body empty, kind note, references none", async () => {
        const area = (await t.call("POST", `${ws}/areas`, { key: p.owner, body: { name: `Removals ${name}` } })).body;
        const full = {
          title: "Fully loaded",
          body: "Some text",
          tags: ["ops", "billing"],
          anchors: ["src/**"],
          kind: "doc",
          source_url: "https://wiki.example.com/full",
          area_id: area.id,
        };
        const topic = await create(full);
        const removeAll = { body: null, tags: null, anchors: null, kind: null, source_url: null, area_id: null, repo_id: null };
        const opened = await propose(topic.slug, { summary: "Strip it", patch: removeAll });
        expect(opened.status).toBe(201);
        expect(opened.body.patch).toEqual(removeAll); // stored as sent
        const merged = await decide(topic.slug, opened.body.id, "merge");
        expect(merged.status).toBe(201);
        const stripped = {
          title: "Fully loaded",
          body: "",
          tags: [],
          anchors: [],
          kind: "note",
          source_url: null,
          area_id: null,
          repo_id: null,
        };
        expect(merged.body.topic).toMatchObject({ ...stripped, version: 2 });
        expect(await read(topic.slug)).toMatchObject(stripped);
        const revision = (await t.call("GET", `${ws}/topics/events?type=topic.updated`, { key: p.member })).body.events.find((e: any) =>
          e.topic_id === topic.id
        );
        expect(revision.data.fields).toEqual(["body", "tags", "area_id", "anchors", "kind", "source_url"]);

        // PATCH of a topic is the same merge patch.
        const again = await create({ ...full, title: "Loaded again" });
        const patched = await t.call("PATCH", `${ws}/topics/${again.slug}`, { key: p.member, body: removeAll });
        expect(patched.status).toBe(200);
        expect(patched.body).toMatchObject({ ...stripped, title: "Loaded again", version: 2 });
        // Removing what is already absent changes nothing: no new version.
        const noop = await t.call("PATCH", `${ws}/topics/${again.slug}`, { key: p.member, body: { tags: null, kind: null } });
        expect(noop.body.version).toBe(2);
      });

      test("a null title is a 400 that says the title cannot be removed, in a proposal and in PATCH", async () => {
        const topic = await create({ title: "Keeps its title" });
        for (
          const res of [
            await propose(topic.slug, { summary: "x", patch: { title: null } }),
            await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { title: null } }),
          ]
        ) {
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe("VALIDATION_FAILED");
          const detail = res.body.error.details.find((d: any) => d.path.endsWith("/title"));
          expect(detail.message).toContain("cannot be null");
        }
        expect(await read(topic.slug)).toMatchObject({ title: "Keeps its title", version: 1 });
        expect((await t.call("GET", `${ws}/topics/${topic.slug}/proposals`, { key: p.member })).body.total).toBe(0);
      });

      test("a merge is 409 naming the fields changed since the base version, and applies nothing", async () => {
        const topic = await create({ title: "Original title", body: "Original body" });
        const retitle = await propose(topic.slug, { summary: "Retitle", patch: { title: "Proposed title", body: "Proposed body" } });
        await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { title: "Someone else's title" } });
        const res = await decide(topic.slug, retitle.body.id, "merge");
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: "CONFLICT", conflicting_fields: ["title"], base_version: 1, current_version: 2 });
        expect(await read(topic.slug)).toMatchObject({ title: "Someone else's title", body: "Original body", version: 2 });
        expect((await t.call("GET", `${ws}/topics/${topic.slug}/proposals`, { key: p.member })).body.proposals[0].status).toBe("open");
        // A field changed to exactly what the patch says has converged: no conflict.
        const bodyOnly = await propose(topic.slug, { summary: "Same body", patch: { body: "Converged" }, base_version: 1 });
        await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { body: "Converged" } });
        const clean = await decide(topic.slug, bodyOnly.body.id, "merge");
        expect(clean.status).toBe(201);
        expect(clean.body.proposal).toMatchObject({ status: "merged", merged_version: 3 });
        expect(clean.body.topic.version).toBe(3);
      });

      test("of two merges racing, one applies and the other is a 409", async () => {
        const topic = await create({ title: "Race target" });
        const a = await propose(topic.slug, { summary: "A", patch: { body: "from A" } });
        const results = await Promise.all([decide(topic.slug, a.body.id, "merge"), decide(topic.slug, a.body.id, "merge")]);
        expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
        expect(await read(topic.slug)).toMatchObject({ body: "from A", version: 2 });
      });

      test("merge and reject take owner/admin: members and faceless keys get 403; a closed proposal is 409", async () => {
        const topic = await create({ title: "Guarded" });
        const opened = await propose(topic.slug, { summary: "x", patch: { body: "y" } });
        for (const key of [p.member, p.service]) {
          expect((await decide(topic.slug, opened.body.id, "merge", key)).status).toBe(403);
          expect((await decide(topic.slug, opened.body.id, "reject", key)).status).toBe(403);
        }
        const rejected = await decide(topic.slug, opened.body.id, "reject", p.admin);
        expect(rejected.status).toBe(201);
        expect(rejected.body).toMatchObject({ status: "rejected", merged_version: null });
        expect(await read(topic.slug)).toMatchObject({ body: "", version: 1 });
        const again = await decide(topic.slug, opened.body.id, "merge");
        expect(again.status).toBe(409);
        expect(again.body.error.current_status).toBe("rejected");
        expect((await decide(topic.slug, opened.body.id, "reject")).status).toBe(409);
        expect(events.map((e) => e.type)).toContain("proposal.rejected");
      });

      test("an archived topic takes no proposal and merges none", async () => {
        const topic = await create({ title: "Old news" });
        const opened = await propose(topic.slug, { summary: "x", patch: { body: "y" } });
        await t.call("POST", `${ws}/topics/${topic.slug}/archive`, { key: p.member });
        expect((await propose(topic.slug, { summary: "x", patch: { body: "z" } })).status).toBe(409);
        const res = await decide(topic.slug, opened.body.id, "merge");
        expect(res.status).toBe(409);
        expect(res.body.error.current_status).toBe("archived");
        expect((await decide(topic.slug, opened.body.id, "reject")).status).toBe(201);
      });

      test("bad input is a 400, an unknown proposal a 404", async () => {
        const topic = await create({ title: "Strict" });
        const other = await create({ title: "Strict neighbour" });
        for (
          const body of [
            { summary: "x", patch: {} },
            { summary: "x", patch: { colour: "red" } },
            { summary: "x", patch: { title: null } },
            { summary: "x", patch: { title: "" } },
            { summary: "x", patch: { kind: "essay" } },
            { summary: "x", patch: { area_id: "01939a3e-0000-7000-8000-000000000000" } },
            { summary: "", patch: { body: "y" } },
            { summary: "   ", patch: { body: "y" } },
            { summary: "s".repeat(501), patch: { body: "y" } },
            { summary: "x" },
            { patch: { body: "y" } },
            { summary: "x", patch: { body: "y" }, extra: 1 },
            { summary: "x", patch: { body: "y" }, base_version: 2 },
            { summary: "x", patch: "body=y" },
          ]
        ) {
          const res = await propose(topic.slug, body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.error.code).toBe("VALIDATION_FAILED");
        }
        expect((await t.call("GET", `${ws}/topics/${topic.slug}/proposals`, { key: p.member })).body.total).toBe(0);
        expect((await t.call("GET", `${ws}/topics/${topic.slug}/proposals?status=pending`, { key: p.member })).status).toBe(400);
        expect((await t.call("GET", `${ws}/topics/proposals?limit=201`, { key: p.member })).status).toBe(400);
        expect((await decide(topic.slug, "not-a-uuid", "merge")).status).toBe(400);
        expect((await decide(topic.slug, "01939a3e-0000-7000-8000-000000000000", "merge")).status).toBe(404);
        const elsewhere = await propose(other.slug, { summary: "x", patch: { body: "y" } });
        expect((await decide(topic.slug, elsewhere.body.id, "merge")).status).toBe(404);
        expect((await propose("no-such-topic", { summary: "x", patch: { body: "y" } })).status).toBe(404);
      });
    });

    describe("relations", () => {
      test("add, list both directions, refuse self-relations, duplicates and unknown targets", async () => {
        const api = await create({ title: "Billing API" });
        const db = await create({ title: "Billing database" });
        await t.call("POST", `${ws}/topics/${db.slug}/approve`, { key: p.owner });
        const added = await relate(api.slug, { type: "depends_on", target: db.slug });
        expect(added.status).toBe(201);
        expect(added.body).toMatchObject({
          type: "depends_on",
          direction: "outgoing",
          from_topic_id: api.id,
          to_topic_id: db.id,
          topic: { id: db.id, slug: db.slug, title: "Billing database", trust: "reviewed" },
        });
        expect(await relations(api.slug)).toMatchObject([{ id: added.body.id, direction: "outgoing", topic: { slug: db.slug } }]);
        expect(await relations(db.slug)).toMatchObject([{
          id: added.body.id,
          direction: "incoming",
          topic: { slug: api.slug, trust: "draft" },
        }]);

        const dup = await relate(api.slug, { type: "depends_on", target: db.slug });
        expect(dup.status).toBe(409);
        expect((await relate(db.slug, { type: "depends_on", target: api.slug })).status).toBe(201); // directed: the other way is another relation
        expect((await relate(api.slug, { type: "relates_to", target: db.slug })).status).toBe(201);
        expect((await relate(db.slug, { type: "relates_to", target: api.slug })).status).toBe(409); // symmetric
        for (
          const body of [
            { type: "depends_on", target: api.slug },
            { type: "depends_on", target: "no-such-topic" },
            { type: "loves", target: db.slug },
            { type: "depends_on" },
            { type: "depends_on", target: db.slug, note: "x" },
            { type: "depends_on", target: "Not A Slug" },
          ]
        ) {
          const res = await relate(api.slug, body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.error.code).toBe("VALIDATION_FAILED");
        }
        expect(await relations(api.slug)).toHaveLength(3);
        expect(events.map((e) => e.type)).toContain("relation.added");
      });

      test("deleting is for people: a faceless key may add a relation but not delete one", async () => {
        const a = await create({ title: "Agent source" });
        const b = await create({ title: "Agent target" });
        const added = await relate(a.slug, { type: "part_of", target: b.slug }, p.service);
        expect(added.status).toBe(201);
        expect(added.body.created_by).toBeNull();
        const refused = await t.call("DELETE", `${ws}/topics/${a.slug}/relations/${added.body.id}`, { key: p.service });
        expect(refused.status).toBe(403);
        expect(await relations(a.slug)).toHaveLength(1);
        const unrelated = await create({ title: "Unrelated" });
        expect((await t.call("DELETE", `${ws}/topics/${unrelated.slug}/relations/${added.body.id}`, { key: p.member })).status).toBe(404);
        const deleted = await t.call("DELETE", `${ws}/topics/${b.slug}/relations/${added.body.id}`, { key: p.member });
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({ id: added.body.id, deleted: true });
        expect(await relations(a.slug)).toEqual([]);
        expect((await t.call("DELETE", `${ws}/topics/${a.slug}/relations/${added.body.id}`, { key: p.member })).status).toBe(404);
        expect((await t.call("DELETE", `${ws}/topics/${a.slug}/relations/nope`, { key: p.member })).status).toBe(400);
        expect(events.map((e) => e.type)).toContain("relation.removed");
      });

      test("a topic merge carries the source's relations to the target; a topic deletion takes its relations", async () => {
        const src = await create({ title: "Merge source" });
        const tgt = await create({ title: "Merge target" });
        const x = await create({ title: "Third party" });
        await relate(src.slug, { type: "depends_on", target: x.slug });
        await relate(src.slug, { type: "supersedes", target: tgt.slug }); // becomes a self-relation: dropped
        await relate(x.slug, { type: "relates_to", target: src.slug });
        await relate(tgt.slug, { type: "relates_to", target: x.slug }); // the carried copy would duplicate it
        expect((await t.call("POST", `${ws}/topics/${src.slug}/merge`, { key: p.owner, body: { target: tgt.slug } })).status).toBe(201);
        const onTarget = (await relations(tgt.slug)).map((r) => [r.direction, r.type, r.topic.slug]).sort();
        expect(onTarget).toEqual([
          ["outgoing", "depends_on", x.slug],
          ["outgoing", "relates_to", x.slug],
        ]);
        expect(await relations(x.slug)).toHaveLength(2);
        expect((await t.call("DELETE", `${ws}/topics/${tgt.slug}`, { key: p.owner })).status).toBe(200);
        expect(await relations(x.slug)).toEqual([]);
      });
    });

    describe("graph", () => {
      let hub: any;
      let ring: any[];
      beforeAll(async () => {
        hub = await create({ title: "Graph hub" });
        ring = [
          await create({ title: "Graph one" }),
          await create({ title: "Graph two" }),
          await create({ title: "Graph three" }),
          await create({ title: "Graph old" }),
        ];
        await relate(hub.slug, { type: "depends_on", target: ring[0].slug });
        await relate(ring[1].slug, { type: "part_of", target: ring[0].slug });
        await relate(ring[2].slug, { type: "relates_to", target: ring[1].slug });
        await relate(hub.slug, { type: "supersedes", target: ring[3].slug });
        await t.call("POST", `${ws}/topics/${ring[3].slug}/archive`, { key: p.member });
      });

      test("GET /topics/graph walks relations both ways up to depth, leaving out archived topics", async () => {
        const one = await t.call("GET", `${ws}/topics/graph?center=${hub.slug}`, { key: p.member });
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({ center: hub.slug, depth: 1, truncated: false });
        expect(one.body.nodes.map((n: any) => [n.slug, n.distance])).toEqual([
          [hub.slug, 0],
          [ring[0].slug, 1],
        ]);
        expect(one.body.nodes[0]).toMatchObject({
          id: hub.id,
          title: "Graph hub",
          status: "draft",
          trust: "draft",
          stale: false,
          drifted: false,
        });
        expect(one.body.edges).toEqual([{ id: expect.any(String), from: hub.id, to: ring[0].id, type: "depends_on" }]);
        const three = await t.call("GET", `${ws}/topics/graph?center=${ring[0].slug}&depth=3`, { key: p.member });
        expect(Object.fromEntries(three.body.nodes.map((n: any) => [n.slug, n.distance]))).toEqual({
          [ring[0].slug]: 0,
          [hub.slug]: 1,
          [ring[1].slug]: 1,
          [ring[2].slug]: 2,
        });
        expect(three.body.nodes.map((n: any) => n.distance)).toEqual([0, 1, 1, 2]);
        expect(three.body.edges).toHaveLength(3);
        // The archived topic shows as the center only.
        const old = await t.call("GET", `${ws}/topics/graph?center=${ring[3].slug}`, { key: p.member });
        expect(old.body.nodes.map((n: any) => n.slug)).toEqual([ring[3].slug, hub.slug]);
      });

      test("GET /topics/graph refuses what it cannot mean", async () => {
        for (
          const q of [
            "",
            `center=${hub.slug}&depth=4`,
            `center=${hub.slug}&depth=0`,
            `center=${hub.slug}&depth=x`,
            `center=${hub.slug}&colour=1`,
          ]
        ) {
          expect((await t.call("GET", `${ws}/topics/graph?${q}`, { key: p.member })).status, q).toBe(400);
        }
        expect((await t.call("GET", `${ws}/topics/graph?center=no-such-topic`, { key: p.member })).status).toBe(404);
      });

      test("GET /topics/graph-full has a strong ETag; If-None-Match answers 304 until the graph changes", async () => {
        const full = await t.call("GET", `${ws}/topics/graph-full`, { key: p.member });
        expect(full.status).toBe(200);
        const etag = full.headers.get("etag")!;
        expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
        expect(full.body.shape).toBe("nodes-edges");
        expect(full.body.truncated).toBe(false);
        const slugs = full.body.nodes.map((n: any) => n.slug);
        expect(slugs).toContain(hub.slug);
        expect(slugs).not.toContain(ring[3].slug);
        expect(
          full.body.edges.every((e: any) =>
            full.body.nodes.some((n: any) => n.id === e.from) && full.body.nodes.some((n: any) => n.id === e.to)
          ),
        ).toBe(true);

        const again = await t.call("GET", `${ws}/topics/graph-full`, { key: p.member, headers: { "if-none-match": etag } });
        expect(again.status).toBe(304);
        expect(again.body).toBeNull();
        expect(again.headers.get("etag")).toBe(etag);
        expect(
          (await t.call("GET", `${ws}/topics/graph-full`, { key: p.member, headers: { "if-none-match": `"nope", W/${etag}` } })).status,
        ).toBe(304);

        const withArchived = await t.call("GET", `${ws}/topics/graph-full?include_archived=true`, { key: p.member });
        expect(withArchived.headers.get("etag")).not.toBe(etag);
        expect(withArchived.body.nodes.map((n: any) => n.slug)).toContain(ring[3].slug);
        const adjacency = await t.call("GET", `${ws}/topics/graph-full?shape=adjacency`, { key: p.member });
        expect(adjacency.headers.get("etag")).not.toBe(etag);
        expect(adjacency.body.shape).toBe("adjacency");
        expect(adjacency.body.adjacency[hub.slug]).toEqual([{ to: ring[0].slug, type: "depends_on" }]);
        expect(adjacency.body.adjacency[ring[0].slug]).toEqual([]);

        // A relation added moves the tag.
        await relate(ring[2].slug, { type: "depends_on", target: hub.slug });
        const changed = await t.call("GET", `${ws}/topics/graph-full`, { key: p.member, headers: { "if-none-match": etag } });
        expect(changed.status).toBe(200);
        const etag2 = changed.headers.get("etag")!;
        expect(etag2).not.toBe(etag);
        expect(changed.body.edges.length).toBe(full.body.edges.length + 1);
        // So does a topic change.
        await t.call("PATCH", `${ws}/topics/${ring[2].slug}`, { key: p.member, body: { title: "Graph three, renamed" } });
        const renamed = await t.call("GET", `${ws}/topics/graph-full`, { key: p.member, headers: { "if-none-match": etag2 } });
        expect(renamed.status).toBe(200);
        expect(renamed.body.nodes.find((n: any) => n.id === ring[2].id).title).toBe("Graph three, renamed");
        for (const q of ["shape=matrix", "include_archived=yes", "colour=1"]) {
          expect((await t.call("GET", `${ws}/topics/graph-full?${q}`, { key: p.member })).status, q).toBe(400);
        }
      });
    });

    describe("tenancy and the /watchers alias", () => {
      test("another workspace's key gets 404; another workspace's topic is no target", async () => {
        const topic = await create({ title: "Tenant topic" });
        const other = await personas(t, "links-other");
        for (
          const [method, path] of [
            ["GET", `${ws}/topics/proposals`],
            ["GET", `${ws}/topics/${topic.slug}/proposals`],
            ["GET", `${ws}/topics/${topic.slug}/relations`],
            ["GET", `${ws}/topics/graph?center=${topic.slug}`],
            ["GET", `${ws}/topics/graph-full`],
          ] as const
        ) {
          const res = await t.call(method, path, { key: other.owner });
          expect(res.status, path).toBe(404);
          expect(res.body.error.message).toContain("Workspace");
        }
        expect(
          (await t.call("POST", `${ws}/topics/${topic.slug}/proposals`, { key: other.owner, body: { summary: "x", patch: { body: "y" } } }))
            .status,
        ).toBe(404);
        const theirs = (await t.call("POST", "/workspaces/links-other/topics", { key: other.owner, body: { title: "Their topic" } })).body;
        expect((await relate(topic.slug, { type: "relates_to", target: theirs.slug })).status).toBe(400);
        expect((await t.call("GET", `/workspaces/links-other/topics/graph-full`, { key: other.owner })).body.nodes.map((n: any) => n.slug))
          .toEqual([theirs.slug]);
      });

      test("every call answers under /watchers too, with the deprecation headers", async () => {
        const a = await create({ title: "Watched one" });
        const b = await create({ title: "Watched two" });
        const opened = await propose(a.slug, { summary: "via alias", patch: { body: "aliased" } }, p.member, "watchers");
        expect(opened.status).toBe(201);
        expect(opened.headers.get("deprecation")).toMatch(/^@\d+$/);
        expect((await t.call("GET", `${ws}/watchers/${a.slug}/proposals`, { key: p.member })).body.total).toBe(1);
        expect((await t.call("GET", `${ws}/watchers/proposals`, { key: p.member })).status).toBe(200);
        expect((await decide(a.slug, opened.body.id, "merge", p.member, "watchers")).status).toBe(403);
        const merged = await decide(a.slug, opened.body.id, "merge", p.owner, "watchers");
        expect(merged.status).toBe(201);
        expect(merged.headers.get("link")).toContain(`/topics/${a.slug}/proposals/${opened.body.id}/merge>; rel="successor-version"`);
        const rel = await relate(a.slug, { type: "relates_to", target: b.slug }, p.member, "watchers");
        expect(rel.status).toBe(201);
        expect((await t.call("GET", `${ws}/watchers/${b.slug}/relations`, { key: p.member })).body.relations).toHaveLength(1);
        expect((await t.call("DELETE", `${ws}/watchers/${a.slug}/relations/${rel.body.id}`, { key: p.service })).status).toBe(403);
        expect((await t.call("DELETE", `${ws}/watchers/${a.slug}/relations/${rel.body.id}`, { key: p.member })).status).toBe(200);
        expect((await t.call("GET", `${ws}/watchers/graph?center=${a.slug}`, { key: p.member })).status).toBe(200);
        const full = await t.call("GET", `${ws}/watchers/graph-full`, { key: p.member });
        expect(full.status).toBe(200);
        const notModified = await t.call("GET", `${ws}/watchers/graph-full`, {
          key: p.member,
          headers: { "if-none-match": full.headers.get("etag")! },
        });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.get("deprecation")).toMatch(/^@\d+$/);
        const canonical = await t.call("GET", `${ws}/topics/graph-full`, {
          key: p.member,
          headers: { "if-none-match": full.headers.get("etag")! },
        });
        expect(canonical.status).toBe(304);
        expect(canonical.headers.get("deprecation")).toBeNull();
      });

      test("OpenAPI documents the routes under both paths", async () => {
        const spec = (await t.call("GET", "/openapi.json")).body;
        for (const base of ["topics", "watchers"]) {
          const at = (path: string) => spec.paths[`/api/v1/workspaces/{slug}/${base}${path}`];
          expect(at("/proposals").get, base).toBeDefined();
          expect(at("/{topic}/proposals").post).toBeDefined();
          expect(at("/{topic}/proposals/{proposalId}/merge").post).toBeDefined();
          expect(at("/{topic}/proposals/{proposalId}/reject").post).toBeDefined();
          expect(at("/{topic}/relations").get).toBeDefined();
          expect(at("/{topic}/relations/{relationId}").delete).toBeDefined();
          expect(at("/graph").get).toBeDefined();
          expect(at("/graph-full").get.responses["304"]).toBeDefined();
        }
        expect(spec.paths["/api/v1/workspaces/{slug}/watchers/graph-full"].get.deprecated).toBe(true);
      });
    });
  });
}

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runProposalRelationApiSuite("proposals, relations and graph API on memory", async () => createMemoryStores());
runProposalRelationApiSuite("proposals, relations and graph API on pglite", async () => pglite);
