import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { Stores } from "../../core/stores.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/** Collections, records and entities over HTTP (ADR 012), run on each store by collections.test.ts. */
export function runCollectionsApiSuite(name: string, open: () => Promise<Stores>, opts: { rollups?: boolean } = {}) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    let other: Personas;
    const ws = "/workspaces/coll";
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "coll");
      other = await personas(t, "coll-other");
    });

    const schema = {
      fields: {
        company: { type: "string", required: true, max_length: 100 },
        amount: { type: "number", min: 0 },
        seats: { type: "integer" },
        close_date: { type: "date" },
        site: { type: "url" },
        contact: { type: "email" },
        tier: { type: "enum", values: ["smb", "mid", "ent"] },
        labels: { type: "list", items: { type: "string" }, max_items: 3 },
        account: { type: "entity", entity_kind: "company" },
        notes: { type: "string" },
      },
    };
    async function collection(body: Record<string, unknown> = {}, key = p.member) {
      const res = await t.call("POST", `${ws}/collections`, {
        key,
        body: { name: "Deals", archetype: "pipeline", record_schema: schema, ...body },
      });
      if (res.status !== 201) throw new Error(`collection: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }
    async function record(cid: string, body: Record<string, unknown>, key = p.member) {
      const res = await t.call("POST", `${ws}/collections/${cid}/records`, { key, body });
      if (res.status !== 201) throw new Error(`record: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    describe("collections", () => {
      test("create fills the archetype's default stages; get carries an ETag; the summary view leaves the schema out", async () => {
        const c = await collection();
        expect(c).toMatchObject({ name: "Deals", archetype: "pipeline", status: "active", version: 1, criterion_rel_slugs: [] });
        expect(c.record_schema.stages).toEqual(["lead", "qualified", "proposal", "negotiation", "won", "lost"]);
        const got = await t.call("GET", `${ws}/collections/${c.id}`, { key: p.member });
        expect(got.headers.get("etag")).toBe('"1"');
        const summary = await t.call("GET", `${ws}/collections/${c.id}?view=summary`, { key: p.member });
        expect(summary.body.record_schema).toBeUndefined();
        expect(summary.body.name).toBe("Deals");
        for (const [archetype, first] of [["analysis", "new"], ["content", "idea"]]) {
          expect((await collection({ archetype, record_schema: undefined })).record_schema.stages[0]).toBe(first);
        }
      });

      test("an archetype outside the three, an unknown field, a bad schema are 400 VALIDATION_FAILED and create nothing", async () => {
        const before = (await t.call("GET", `${ws}/collections?limit=200`, { key: p.member })).body.collections.length;
        for (
          const body of [
            { name: "x", archetype: "crm" },
            { name: "x", archetype: "pipeline", colour: "red" },
            { name: "x", archetype: "pipeline", record_schema: { fields: { amount: { type: "number", min: 5, max: 1 } } } },
            { name: "x", archetype: "pipeline", record_schema: { fields: { Bad: { type: "string" } } } },
            { name: "x", archetype: "pipeline", record_schema: { stages: ["a", "a"] } },
            // (An open collection's views may name any field; a declared schema's may not.)
            {
              name: "x",
              archetype: "pipeline",
              record_schema: { fields: { company: { type: "string" } } },
              views: [{ name: "v", kind: "table", columns: ["fields.nope"] }],
            },
          ]
        ) {
          const res = await t.call("POST", `${ws}/collections`, { key: p.member, body });
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe("VALIDATION_FAILED");
        }
        expect((await t.call("GET", `${ws}/collections?limit=200`, { key: p.member })).body.collections.length).toBe(before);
      });

      test("PATCH needs the current version when given; a stale one is 409 with current_version and applies nothing", async () => {
        const c = await collection();
        const ok = await t.call("PATCH", `${ws}/collections/${c.id}`, { key: p.member, body: { name: "Renamed", expected_version: 1 } });
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ name: "Renamed", version: 2 });
        const stale = await t.call("PATCH", `${ws}/collections/${c.id}`, {
          key: p.member,
          body: { name: "Late" },
          headers: { "if-match": '"1"' },
        });
        expect(stale.status).toBe(409);
        expect(stale.body.error).toMatchObject({ code: "VERSION_CONFLICT", current_version: 2 });
        expect((await t.call("GET", `${ws}/collections/${c.id}`, { key: p.member })).body.name).toBe("Renamed");
      });

      test("archive hides it from the list and makes records read-only; restore brings it back", async () => {
        const c = await collection({ name: "Archivable" });
        const r = await record(c.id, { fields: { company: "A" } });
        expect((await t.call("POST", `${ws}/collections/${c.id}/archive`, { key: p.member })).status).toBe(201);
        // Archiving it again changes nothing: no new version.
        expect((await t.call("POST", `${ws}/collections/${c.id}/archive`, { key: p.member })).body).toMatchObject({
          status: "archived",
          version: 2,
        });
        const active = (await t.call("GET", `${ws}/collections?limit=200`, { key: p.member })).body.collections.map((x: any) => x.id);
        expect(active).not.toContain(c.id);
        expect((await t.call("GET", `${ws}/collections?status=archived`, { key: p.member })).body.collections.map((x: any) => x.id))
          .toContain(c.id);
        const write = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.member, body: { status: "won" } });
        expect(write.status).toBe(409);
        const restored = await t.call("POST", `${ws}/collections/${c.id}/restore`, { key: p.member, body: { expected_version: 2 } });
        expect(restored.status).toBe(201);
        expect(restored.body).toMatchObject({ status: "active", version: 3 });
        expect((await t.call("PATCH", `${ws}/collections/${c.id}`, { key: p.member, body: { status: "archived" } })).body.status).toBe(
          "archived",
        );
      });

      test("list pages by the last id; search matches name words, archived only when asked", async () => {
        const a = await collection({ name: "Zebra search one" });
        const b = await collection({ name: "zebra search two" });
        await t.call("POST", `${ws}/collections/${b.id}/archive`, { key: p.member });
        const found = await t.call("GET", `${ws}/collections/search?q=ZEBRA%20search`, { key: p.member });
        expect(found.body.collections.map((x: any) => x.id)).toEqual([a.id]);
        const all = await t.call("GET", `${ws}/collections/search?q=zebra&include_archived=true`, { key: p.member });
        expect(all.body.collections.map((x: any) => x.id)).toEqual([b.id, a.id]);
        const first = await t.call("GET", `${ws}/collections?limit=1`, { key: p.member });
        expect(first.body.has_more).toBe(true);
        const second = await t.call("GET", `${ws}/collections?limit=1&cursor=${first.body.collections[0].id}`, { key: p.member });
        expect(second.body.collections[0].id).not.toBe(first.body.collections[0].id);
        expect((await t.call("GET", `${ws}/collections?limit=500`, { key: p.member })).status).toBe(400);
      });

      test("connector mapping and presentation are read and set with versions; fields they name must exist", async () => {
        const c = await collection({ views: [{ name: "Board", kind: "board", group_by: "status" }] });
        expect((await t.call("GET", `${ws}/collections/${c.id}/connector-mapping`, { key: p.member })).body).toEqual({
          mapping: null,
          version: 1,
        });
        const mapping = { source: "hubspot", fields: { company: "properties.name", amount: "properties.amount" } };
        const set = await t.call("PUT", `${ws}/collections/${c.id}/connector-mapping`, {
          key: p.member,
          body: { mapping, expected_version: 1 },
        });
        expect(set.body).toEqual({ mapping, version: 2 });
        const bad = await t.call("PUT", `${ws}/collections/${c.id}/connector-mapping`, {
          key: p.member,
          body: { mapping: { source: "x", fields: { nope: "y" } } },
        });
        expect(bad.status).toBe(400);
        const pres = await t.call("PUT", `${ws}/collections/${c.id}/presentation`, {
          key: p.member,
          body: { title_field: "company", card_fields: ["amount"], default_view: "Board" },
        });
        expect(pres.body).toEqual({ presentation: { title_field: "company", card_fields: ["amount"], default_view: "Board" }, version: 3 });
        expect((await t.call("PUT", `${ws}/collections/${c.id}/presentation`, { key: p.member, body: { default_view: "Nope" } })).status)
          .toBe(400);
        expect(
          (await t.call("PUT", `${ws}/collections/${c.id}/presentation`, {
            key: p.member,
            body: { title_field: "company", expected_version: 1 },
          })).status,
        ).toBe(409);
        expect((await t.call("GET", `${ws}/collections/${c.id}/presentation`, { key: p.member })).body.version).toBe(3);
      });

      test("context resolves criterion slugs to topics with their trust verdict, and lists the missing", async () => {
        const topic =
          (await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "Ideal customer profile", body: "Mid-market SaaS" } }))
            .body;
        await t.call("POST", `${ws}/topics/${topic.slug}/approve`, { key: p.owner });
        const c = await collection({ criterion_rel_slugs: [topic.slug, "no-such-topic"] });
        const ctx = await t.call("GET", `${ws}/collections/${c.id}/context`, { key: p.member });
        expect(ctx.status).toBe(200);
        expect(ctx.body.criterion).toHaveLength(1);
        expect(ctx.body.criterion[0]).toMatchObject({ slug: topic.slug, topic: { id: topic.id, trust: "reviewed" } });
        expect(ctx.body.missing).toEqual(["no-such-topic"]);

        // Old slugs are followed (a move, a merge into another topic); another workspace's topic is missing.
        const moved = (await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "Pricing rules" } })).body;
        expect((await t.call("POST", `${ws}/topics/${moved.slug}/move`, { key: p.owner, body: { slug: "pricing-rules-v2" } })).status).toBe(
          201,
        );
        const merged = (await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "Old profile" } })).body;
        expect((await t.call("POST", `${ws}/topics/${merged.slug}/merge`, { key: p.owner, body: { target: topic.slug } })).status).toBe(
          201,
        );
        const foreign =
          (await t.call("POST", `/workspaces/coll-other/topics`, { key: other.owner, body: { title: "Their playbook" } })).body;
        const c2 = await collection({ criterion_rel_slugs: [moved.slug, merged.slug, foreign.slug, topic.slug] });
        const ctx2 = (await t.call("GET", `${ws}/collections/${c2.id}/context`, { key: p.member })).body;
        expect(ctx2.criterion.map((x: any) => [x.slug, x.topic.id])).toEqual([[moved.slug, moved.id], [merged.slug, topic.id], [
          topic.slug,
          topic.id,
        ]]);
        expect(ctx2.missing).toEqual([foreign.slug]);
      });

      test("owner_identity_id must name a member of this workspace", async () => {
        const identityOf = async (slug: string, key: string, memberId: string) =>
          (await t.call("GET", `/workspaces/${slug}/members`, { key })).body.members.find((m: any) => m.id === memberId)
            .identity_id as string;
        const admin = await identityOf("coll", p.owner, p.adminMemberId);
        expect(await collection({ owner_identity_id: admin })).toMatchObject({ owner_identity_id: admin });
        const stranger = await identityOf("coll-other", other.owner, other.adminMemberId);
        for (const id of [stranger, "01939a3e-0000-7000-8000-000000000000"]) {
          const res = await t.call("POST", `${ws}/collections`, {
            key: p.member,
            body: { name: "Deals", archetype: "pipeline", owner_identity_id: id },
          });
          expect(res.status).toBe(400);
          expect(res.body.error.details).toEqual([{ path: "/owner_identity_id", message: "is not a member of this workspace" }]);
        }
      });

      test("another workspace's collection is a 404, on every path", async () => {
        const c = await collection();
        for (
          const [method, path] of [["GET", ""], ["GET", "/records"], ["GET", "/context"], ["DELETE", "?dry_run=true"], [
            "PATCH",
            "",
          ]] as const
        ) {
          const res = await t.call(method, `/workspaces/coll-other/collections/${c.id}${path}`, {
            key: other.owner,
            ...(method === "PATCH" ? { body: { name: "x" } } : {}),
          });
          expect(res.status).toBe(404);
        }
      });
    });

    describe("records", () => {
      test("every field error is reported at once; a status outside the stages is VALIDATION_FAILED; nothing is written", async () => {
        const c = await collection();
        const res = await t.call("POST", `${ws}/collections/${c.id}/records`, {
          key: p.member,
          body: {
            fields: {
              amount: -1,
              seats: 1.5,
              close_date: "2026-02-30",
              site: "ftp://x",
              contact: "nope",
              tier: "huge",
              labels: ["a", "b", "c", "d"],
              extra: 1,
              account: "not-an-id",
            },
            status: "closed",
          },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
        const paths = res.body.error.details.map((d: any) => d.path).sort();
        expect(paths).toEqual(
          [
            "/fields/account",
            "/fields/amount",
            "/fields/close_date",
            "/fields/company",
            "/fields/contact",
            "/fields/extra",
            "/fields/labels",
            "/fields/seats",
            "/fields/site",
            "/fields/tier",
            "/status",
          ].sort(),
        );
        expect((await t.call("GET", `${ws}/collections/${c.id}/records`, { key: p.member })).body.records).toEqual([]);
        const drifted = await t.call("POST", `${ws}/collections/${c.id}/records`, {
          key: p.member,
          body: { fields: { company: "A" }, drifted: true },
        });
        expect(drifted.status).toBe(400);
      });

      test("entity links must name entities of the workspace, of the kind the field asks", async () => {
        const c = await collection();
        const acme =
          (await t.call("POST", `${ws}/entities`, { key: p.member, body: { kind: "company", name: "Acme", dedup_key: "acme.com" } })).body
            .entity;
        const bob = (await t.call("POST", `${ws}/entities`, { key: p.member, body: { kind: "person", name: "Bob" } })).body.entity;
        const theirs =
          (await t.call("POST", `/workspaces/coll-other/entities`, { key: other.member, body: { kind: "company", name: "X" } })).body
            .entity;
        const ok = await t.call("POST", `${ws}/collections/${c.id}/records`, {
          key: p.member,
          body: { fields: { company: "Acme", account: acme.id }, entity_id: acme.id },
        });
        expect(ok.status).toBe(201);
        const bad = await t.call("POST", `${ws}/collections/${c.id}/records`, {
          key: p.member,
          body: { fields: { company: "Acme", account: bob.id }, entity_id: theirs.id },
        });
        expect(bad.status).toBe(400);
        expect(bad.body.error.details).toEqual([
          { path: "/entity_id", message: "is not an entity of this workspace" },
          { path: "/fields/account", message: "must be an entity of kind company" },
        ]);
      });

      test("update merges fields, checks versions, and the history shows per-field diffs and stage moves with who", async () => {
        const c = await collection();
        const r = await record(c.id, { fields: { company: "Acme", amount: 100, notes: "first" } });
        expect(r).toMatchObject({ status: "lead", version: 1, drifted: false });
        const u = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}`, {
          key: p.member,
          body: { fields: { amount: 250, notes: null }, status: "qualified", expected_version: 1 },
        });
        expect(u.status).toBe(200);
        expect(u.body).toMatchObject({ fields: { company: "Acme", amount: 250 }, status: "qualified", version: 2 });
        expect(u.body.fields.notes).toBeUndefined();
        const stale = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}`, {
          key: p.member,
          body: { drifted: true },
          headers: { "if-match": '"1"' },
        });
        expect(stale.status).toBe(409);
        expect(stale.body.error.current_version).toBe(2);
        const staleQuery = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}?expected_version=1`, {
          key: p.member,
          body: { drifted: true },
        });
        expect(staleQuery.status).toBe(409);
        const disagree = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}?expected_version=2`, {
          key: p.member,
          body: { drifted: true, expected_version: 1 },
        });
        expect(disagree.status).toBe(400);
        const bad = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.member, body: { status: "closed" } });
        expect(bad.status).toBe(400);
        const drift = await t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.owner, body: { drifted: true } });
        expect(drift.body).toMatchObject({ drifted: true, version: 3 });
        const h = await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}/history`, { key: p.member });
        expect(h.body.history.map((e: any) => e.version)).toEqual([3, 2, 1]);
        expect(h.body.history[1]).toMatchObject({
          type: "record.updated",
          stage: { from: "lead", to: "qualified" },
          diff: [
            { path: "fields.amount", before: 100, after: 250 },
            { path: "fields.notes", before: "first", after: null },
            { path: "status", before: "lead", after: "qualified" },
          ],
        });
        expect(h.body.history[1].actor_id).toBeString();
        expect(h.body.history[2].stage).toEqual({ from: null, to: "lead" });
        const page = await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}/history?limit=1&before_version=3`, { key: p.member });
        expect(page.body).toMatchObject({ has_more: true, history: [{ version: 2 }] });
      });

      test("concurrent updates of one version: exactly one applies", async () => {
        const c = await collection();
        const r = await record(c.id, { fields: { company: "Race" } });
        const results = await Promise.all(
          ["qualified", "won", "lost", "proposal"].map((status) =>
            t.call("PATCH", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.member, body: { status, expected_version: 1 } })
          ),
        );
        expect(results.map((x) => x.status).sort()).toEqual([200, 409, 409, 409]);
      });

      test("outcomes move the stage when asked and land in the history", async () => {
        const c = await collection();
        const r = await record(c.id, { fields: { company: "Won Co", amount: 5000 } });
        const o = await t.call("POST", `${ws}/collections/${c.id}/records/${r.id}/outcomes`, {
          key: p.member,
          body: { outcome: "won", value: 5000, status: "won", expected_version: 1 },
        });
        expect(o.status).toBe(201);
        expect(o.body).toMatchObject({ outcome: { outcome: "won", value: 5000, note: null }, record: { status: "won", version: 2 } });
        const h = await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}/history`, { key: p.member });
        expect(h.body.history[0]).toMatchObject({
          type: "record.outcome",
          outcome: { outcome: "won" },
          stage: { from: "lead", to: "won" },
        });
      });

      test("list filters and keyset pages; a cursor replayed with another filter is a 400", async () => {
        const c = await collection();
        const made: string[] = [];
        for (let i = 0; i < 7; i++) {
          made.push((await record(c.id, { fields: { company: `Co ${i}`, amount: i * 10 }, status: i % 2 ? "won" : "lead" })).id);
        }
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const res: any = await t.call(
            "GET",
            `${ws}/collections/${c.id}/records?status=lead&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
            { key: p.member },
          );
          expect(res.status).toBe(200);
          seen.push(...res.body.records.map((r: any) => r.id));
          cursor = res.body.nextCursor;
        } while (cursor);
        expect(seen).toEqual([made[6]!, made[4]!, made[2]!, made[0]!]);
        const first = await t.call("GET", `${ws}/collections/${c.id}/records?status=lead&limit=2`, { key: p.member });
        const replay = await t.call("GET", `${ws}/collections/${c.id}/records?status=won&limit=2&cursor=${first.body.nextCursor}`, {
          key: p.member,
        });
        expect(replay.status).toBe(400);
        expect(replay.body.error.code).toBe("VALIDATION_FAILED");
        const compact = await t.call("GET", `${ws}/collections/${c.id}/records?view=compact&limit=1`, { key: p.member });
        expect(compact.body.records[0].fields).toBeUndefined();
      });

      test("query: a typed filter tree and a sort, paged; wrong operators and types are 400s naming the condition", async () => {
        const c = await collection();
        for (
          const [company, amount, status] of [["A", 100, "lead"], ["B", 7000, "qualified"], ["C", 9000, "qualified"], [
            "D",
            3000,
            "qualified",
          ], ["E", 8000, "won"]] as const
        ) {
          await record(c.id, { fields: { company, amount }, status });
        }
        const body = {
          filter: { and: [{ field: "status", op: "eq", value: "qualified" }, { field: "fields.amount", op: "gte", value: 5000 }] },
          sort: { field: "fields.amount", dir: "desc" },
          limit: 1,
        };
        const p1 = await t.call("POST", `${ws}/collections/${c.id}/records/query`, { key: p.member, body });
        expect(p1.status).toBe(201);
        expect(p1.body.records.map((r: any) => r.fields.company)).toEqual(["C"]);
        const p2 = await t.call("POST", `${ws}/collections/${c.id}/records/query`, {
          key: p.member,
          body: { ...body, cursor: p1.body.nextCursor },
        });
        expect(p2.body.records.map((r: any) => r.fields.company)).toEqual(["B"]);
        expect(p2.body.nextCursor).toBeNull();
        const other = await t.call("POST", `${ws}/collections/${c.id}/records/query`, {
          key: p.member,
          body: { ...body, sort: { field: "fields.amount" }, cursor: p1.body.nextCursor },
        });
        expect(other.status).toBe(400);
        const bad = await t.call("POST", `${ws}/collections/${c.id}/records/query`, {
          key: p.member,
          body: {
            filter: {
              or: [{ field: "fields.amount", op: "contains", value: "x" }, { field: "fields.nope", op: "eq", value: 1 }, {
                field: "fields.company",
                op: "gt",
                value: 3,
              }],
            },
          },
        });
        expect(bad.status).toBe(400);
        expect(bad.body.error.details.map((d: any) => d.path)).toEqual(["/filter/or/0/value", "/filter/or/1/field", "/filter/or/2/value"]);
        const unknown = await t.call("POST", `${ws}/collections/${c.id}/records/query`, {
          key: p.member,
          body: { filter: { field: "status", op: "eq", value: "lead", extra: 1 } },
        });
        expect(unknown.status).toBe(400);
      });

      test("aggregate by stage: count and sum, largest groups first, bounded", async () => {
        const c = await collection();
        for (const [status, amount] of [["lead", 1], ["lead", 2], ["lead", 3], ["won", 10], ["lost", 5], ["lost", 5]] as const) {
          await record(c.id, { fields: { company: "x", amount }, status });
        }
        const res = await t.call("POST", `${ws}/collections/${c.id}/records/aggregate`, {
          key: p.member,
          body: {
            group_by: ["status"],
            metrics: [{ fn: "count" }, { fn: "sum", field: "fields.amount" }, { fn: "avg", field: "fields.amount", as: "mean" }],
            max_groups: 2,
          },
        });
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          groups: [
            { key: { status: "lead" }, count: 3, values: { count: 3, sum_amount: 6, mean: 2 } },
            { key: { status: "lost" }, count: 2, values: { count: 2, sum_amount: 10, mean: 5 } },
          ],
          truncated: true,
          source: "records",
        });
        const bad = await t.call("POST", `${ws}/collections/${c.id}/records/aggregate`, {
          key: p.member,
          body: { metrics: [{ fn: "sum", field: "fields.company" }] },
        });
        expect(bad.status).toBe(400);
      });

      test("an aggregate a view declares: named by view, answered as the ad-hoc scan answers, kept up to date by writes", async () => {
        const byStage = {
          name: "by_stage",
          group_by: ["status"],
          metrics: [{ fn: "count" }, { fn: "sum", field: "fields.amount" }, { fn: "avg", field: "fields.amount", as: "mean" }],
        };
        const c = await collection({ views: [{ name: "Board", kind: "board", group_by: "status", aggregates: [byStage] }] });
        const amounts = [["lead", 1], ["lead", 2], ["won", 10], ["lost", 5]] as const;
        const made = [];
        for (const [status, amount] of amounts) made.push(await record(c.id, { fields: { company: "x", amount }, status }));
        await t.call("PATCH", `${ws}/collections/${c.id}/records/${made[0].id}`, { key: p.member, body: { status: "won" } });
        await t.call("DELETE", `${ws}/collections/${c.id}/records/${made[3].id}`, { key: p.member });
        const agg = (body: Record<string, unknown>) =>
          t.call("POST", `${ws}/collections/${c.id}/records/aggregate`, { key: p.member, body });
        const declared = await agg({ view: "Board" });
        expect(declared.status).toBe(201);
        const groups = [
          { key: { status: "won" }, count: 2, values: { count: 2, sum_amount: 11, mean: 5.5 } },
          { key: { status: "lead" }, count: 1, values: { count: 1, sum_amount: 2, mean: 2 } },
        ];
        const served = opts.rollups ? "rollup" : "records";
        expect(declared.body).toEqual({ groups, truncated: false, source: served });
        expect((await agg({ view: "Board", aggregate: "by_stage", max_groups: 1 })).body).toEqual({
          groups: groups.slice(0, 1),
          truncated: true,
          source: served,
        });
        // Ad hoc with the declared keys and metrics (another name, a subset): the rollup answers; with a filter, the scan.
        const adHoc = { group_by: ["status"], metrics: [{ fn: "sum", field: "fields.amount", as: "total" }] };
        const values = groups.map((g) => ({ ...g, values: { total: g.values.sum_amount } }));
        expect((await agg(adHoc)).body).toEqual({ groups: values, truncated: false, source: served });
        expect((await agg({ ...adHoc, filter: { field: "status", op: "exists", value: true } })).body).toEqual({
          groups: values,
          truncated: false,
          source: "records",
        });
        // Declared on a collection with records: built from them at once.
        const updated = await t.call("PATCH", `${ws}/collections/${c.id}`, {
          key: p.member,
          body: { views: [{ name: "Owners", kind: "table", aggregates: [{ name: "all", metrics: [{ fn: "count" }] }] }] },
        });
        expect(updated.status).toBe(200);
        expect((await agg({ view: "Owners" })).body).toEqual({
          groups: [{ key: {}, count: 3, values: { count: 3 } }],
          truncated: false,
          source: served,
        });
        const refused = async (body: Record<string, unknown>, paths: string[]) => {
          const res = await agg(body);
          expect(res.status).toBe(400);
          expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(paths);
        };
        await refused({ view: "Board" }, ["/view"]);
        await refused({ view: "Owners", aggregate: "nope" }, ["/aggregate"]);
        await refused({ view: "Owners", metrics: [{ fn: "count" }], group_by: ["status"] }, ["/group_by", "/metrics"]);
        await refused({ aggregate: "all", metrics: [{ fn: "count" }] }, ["/aggregate"]);
        await refused({}, ["/metrics"]);
        const badView = await t.call("PATCH", `${ws}/collections/${c.id}`, {
          key: p.member,
          body: {
            views: [{
              name: "Bad",
              kind: "table",
              aggregates: [{ name: "a", group_by: ["fields.nope"], metrics: [{ fn: "count" }] }, {
                name: "a",
                metrics: [{ fn: "sum", field: "fields.company" }],
              }],
            }],
          },
        });
        expect(badView.status).toBe(400);
        expect(badView.body.error.details.map((d: { path: string }) => d.path)).toEqual([
          "/views/0/aggregates/0/group_by/0",
          "/views/0/aggregates/1/name",
          "/views/0/aggregates/1/metrics/0/field",
        ]);
        const minMax = await t.call("PATCH", `${ws}/collections/${c.id}`, {
          key: p.member,
          body: { views: [{ name: "M", kind: "table", aggregates: [{ name: "m", metrics: [{ fn: "min", field: "fields.amount" }] }] }] },
        });
        expect(minMax.status).toBe(400);
      });

      test("detail: select, projection and max_bytes trimming that says what it cut", async () => {
        const c = await collection();
        const r = await record(c.id, {
          fields: { company: "Big", notes: "x".repeat(5000), amount: 1 },
          field_meta: { notes: { source: "crm", confidence: 0.5 } },
        });
        const sel = await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}?select=company,amount`, { key: p.member });
        expect(sel.body.fields).toEqual({ company: "Big", amount: 1 });
        expect(sel.body.truncated).toBe(false);
        const small = await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}?max_bytes=1000`, { key: p.member });
        expect(small.body.truncated).toBe(true);
        expect(small.body.omitted).toContain("field_meta");
        expect(small.body.shortened).toEqual(["fields.notes"]);
        expect(small.body.fields.notes.endsWith("…")).toBe(true);
        const { truncated: _t, omitted: _o, shortened: _s, ...rec } = small.body;
        expect(new TextEncoder().encode(JSON.stringify(rec)).length).toBeLessThanOrEqual(1000);
        expect((await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}?max_bytes=10`, { key: p.member })).status).toBe(400);
      });

      test("retrieve: records matching words with a field projection, plus the criterion", async () => {
        const c = await collection();
        await record(c.id, { fields: { company: "Quantum Widgets", notes: "renewal due" } });
        await record(c.id, { fields: { company: "Other", notes: "nothing" } });
        const res = await t.call("GET", `${ws}/collections/${c.id}/retrieve?query=quantum%20RENEWAL&fields=company`, { key: p.member });
        expect(res.status).toBe(200);
        expect(res.body.records.map((r: any) => r.fields)).toEqual([{ company: "Quantum Widgets" }]);
        expect(res.body).toMatchObject({ collection: { id: c.id }, criterion: [], missing_criterion: [], nextCursor: null });
      });

      test("delete: dry_run plans, a stale version refuses, the real one removes record and history", async () => {
        const c = await collection();
        const r = await record(c.id, { fields: { company: "Gone" } });
        await t.call("POST", `${ws}/collections/${c.id}/records/${r.id}/outcomes`, { key: p.member, body: { outcome: "lost" } });
        const plan = await t.call("DELETE", `${ws}/collections/${c.id}/records/${r.id}?dry_run=true`, { key: p.member });
        expect(plan.body).toEqual({ dry_run: true, removed: { record_id: r.id, history_entries: 2, outcomes: 1 } });
        expect((await t.call("DELETE", `${ws}/collections/${c.id}/records/${r.id}?expected_version=1`, { key: p.member })).status).toBe(
          409,
        );
        expect(
          (await t.call("DELETE", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.member, headers: { "if-match": '"2"' } })).body
            .dry_run,
        ).toBe(false);
        expect((await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.member })).status).toBe(404);
      });
    });

    describe("purge", () => {
      test("dry_run reports, a purge without a version is 400, a stale one 409, a member not owning it 403; the purge removes it all", async () => {
        const c = await collection({}, p.admin);
        const acme = (await t.call("POST", `${ws}/entities`, { key: p.member, body: { kind: "company", name: "Acme Purge" } })).body.entity;
        const r = await record(c.id, { fields: { company: "A" }, entity_id: acme.id });
        await record(c.id, { fields: { company: "B" } });
        await t.call("POST", `${ws}/collections/${c.id}/records/${r.id}/outcomes`, { key: p.member, body: { outcome: "won" } });
        const plan = await t.call("DELETE", `${ws}/collections/${c.id}?dry_run=true`, { key: p.admin });
        expect(plan.body).toEqual({
          dry_run: true,
          removed: { collection_id: c.id, records: 2, history_entries: 3, outcomes: 1, entity_links: 1 },
        });
        expect((await t.call("GET", `${ws}/collections/${c.id}/records`, { key: p.member })).body.records).toHaveLength(2);
        expect((await t.call("DELETE", `${ws}/collections/${c.id}`, { key: p.admin })).status).toBe(400);
        expect((await t.call("DELETE", `${ws}/collections/${c.id}?expected_version=2`, { key: p.admin })).status).toBe(409);
        expect((await t.call("DELETE", `${ws}/collections/${c.id}?expected_version=1`, { key: p.member })).status).toBe(403);
        const done = await t.call("DELETE", `${ws}/collections/${c.id}?expected_version=1`, { key: p.admin });
        expect(done.body).toEqual({ ...plan.body, dry_run: false });
        expect((await t.call("GET", `${ws}/collections/${c.id}`, { key: p.admin })).status).toBe(404);
        expect((await t.call("GET", `${ws}/collections/${c.id}/records/${r.id}`, { key: p.admin })).status).toBe(404);
        expect((await t.call("GET", `${ws}/entities/${acme.id}`, { key: p.member })).status).toBe(200);
      });
    });

    describe("entities", () => {
      test("upsert is idempotent on (kind, dedup_key), normalised, and says what changed", async () => {
        const first = await t.call("POST", `${ws}/entities`, {
          key: p.member,
          body: { kind: "Company", name: "Globex", dedup_key: " Globex.com ", attributes: { size: 10, city: "Oslo" } },
        });
        expect(first.status).toBe(201);
        expect(first.body).toMatchObject({
          result: "created",
          changed_attributes: ["city", "size"],
          entity: { kind: "company", dedup_key: " Globex.com ", version: 1 },
        });
        const same = await t.call("POST", `${ws}/entities`, {
          key: p.member,
          body: { kind: "company", name: "Globex", dedup_key: "globex.COM", attributes: { size: 10 } },
        });
        expect(same.status).toBe(200);
        expect(same.body).toMatchObject({ result: "unchanged", changed_attributes: [], entity: { id: first.body.entity.id, version: 1 } });
        const upd = await t.call("POST", `${ws}/entities`, {
          key: p.member,
          body: { kind: "company", name: "Globex Corp", dedup_key: "globex.com", attributes: { size: 12, city: null } },
        });
        expect(upd.body).toMatchObject({
          result: "updated",
          changed_attributes: ["city", "size"],
          name_changed: true,
          entity: { id: first.body.entity.id, name: "Globex Corp", attributes: { size: 12 }, version: 2 },
        });
        expect((await t.call("GET", `${ws}/entities/${first.body.entity.id}`, { key: p.member })).body.attributes).toEqual({ size: 12 });
        expect((await t.call("GET", `/workspaces/coll-other/entities/${first.body.entity.id}`, { key: other.member })).status).toBe(404);
      });

      test("concurrent upserts of one pair make one entity", async () => {
        const results = await Promise.all(
          Array.from(
            { length: 6 },
            (_, i) =>
              t.call("POST", `${ws}/entities`, {
                key: p.member,
                body: { kind: "person", name: "Ann", dedup_key: "ann@example.com", attributes: { [`k${i}`]: i } },
              }),
          ),
        );
        expect(results.filter((r) => r.status === 201)).toHaveLength(1);
        expect(new Set(results.map((r) => r.body.entity.id)).size).toBe(1);
        const list = await t.call("GET", `${ws}/entities?kind=person`, { key: p.member });
        expect(list.body.entities.filter((e: any) => e.dedup_key === "ann@example.com")).toHaveLength(1);
        expect((await t.call("POST", `${ws}/entities`, { key: p.member, body: { kind: "person", name: "x", colour: 1 } })).status).toBe(
          400,
        );
      });
    });

    describe("open collections", () => {
      test("a new user's path: bootstrap, a collection without a schema, records with any fields; query, sort, aggregate and history work", async () => {
        const boot = await t.call("POST", "/workspaces", { body: { slug: "coll-new-user", owner_email: "newcomer@example.com" } });
        expect(boot.status).toBe(201);
        const key = boot.body.api_key.key as string;
        const base = "/workspaces/coll-new-user";
        const c = await t.call("POST", `${base}/collections`, { key, body: { name: "Deals", archetype: "pipeline" } });
        expect(c.status).toBe(201);
        expect(c.body.record_schema).toEqual({ fields: {}, stages: ["lead", "qualified", "proposal", "negotiation", "won", "lost"] });
        const add = (body: Record<string, unknown>) => t.call("POST", `${base}/collections/${c.body.id}/records`, { key, body });
        const initech = await add({ fields: { company: "Initech", amount: 5000 } });
        expect(initech.status).toBe(201);
        expect(initech.body).toMatchObject({ fields: { company: "Initech", amount: 5000 }, status: "lead", version: 1 });
        expect((await add({ fields: { company: "Globex", amount: "5k", contacts: [{ name: "Hank" }] }, status: "won" })).status).toBe(201);
        expect((await add({ fields: { company: "Umbrella", amount: 12000, tags: ["bio", "eu"] } })).status).toBe(201);
        // Stages are still enforced; names outside the pattern and lists in lists are refused, every problem at once.
        const bad = await add({ fields: { Company: "x", grid: [[1]] }, status: "maybe" });
        expect(bad.status).toBe(400);
        expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
          "/fields/Company",
          "/fields/grid/0",
          "/status",
        ]);

        const query = (body: Record<string, unknown>) => t.call("POST", `${base}/collections/${c.body.id}/records/query`, { key, body });
        // Numbers compare with numbers only: "5k" is neither above nor below 1000.
        const big = await query({
          filter: { field: "fields.amount", op: "gte", value: 1000 },
          sort: { field: "fields.amount", dir: "desc" },
        });
        expect(big.status).toBe(201);
        expect(big.body.records.map((r: { fields: { company: string } }) => r.fields.company)).toEqual(["Umbrella", "Initech"]);
        const sorted = await query({ sort: { field: "fields.amount", dir: "asc" }, limit: 2 });
        expect(sorted.body.records.map((r: { fields: { company: string } }) => r.fields.company)).toEqual(["Initech", "Umbrella"]);
        const rest = await query({ sort: { field: "fields.amount", dir: "asc" }, limit: 2, cursor: sorted.body.nextCursor });
        expect(rest.body.records.map((r: { fields: { company: string } }) => r.fields.company)).toEqual(["Globex"]);
        expect(rest.body.nextCursor).toBeNull();
        const tagged = await query({ filter: { field: "fields.tags", op: "contains", value: "eu" } });
        expect(tagged.body.records.length).toBe(1);
        const agg = await t.call("POST", `${base}/collections/${c.body.id}/records/aggregate`, {
          key,
          body: { group_by: ["status"], metrics: [{ fn: "count" }, { fn: "sum", field: "fields.amount" }] },
        });
        expect(agg.status).toBe(201);
        expect(agg.body.groups).toEqual([
          { key: { status: "lead" }, count: 2, values: { count: 2, sum_amount: 17000 } },
          { key: { status: "won" }, count: 1, values: { count: 1, sum_amount: 0 } },
        ]);
        const patched = await t.call("PATCH", `${base}/collections/${c.body.id}/records/${initech.body.id}`, {
          key,
          body: { fields: { amount: null, stage_note: "call back" }, expected_version: 1 },
        });
        expect(patched.status).toBe(200);
        expect(patched.body.fields).toEqual({ company: "Initech", stage_note: "call back" });
        const history = await t.call("GET", `${base}/collections/${c.body.id}/records/${initech.body.id}/history`, { key });
        expect(history.body.history[0].diff).toEqual([
          { path: "fields.amount", before: 5000, after: null },
          { path: "fields.stage_note", before: null, after: "call back" },
        ]);
      });

      test("additional_fields: declared fields validated, undeclared accepted; without it undeclared names are refused", async () => {
        const declared = { fields: { amount: { type: "number" } } };
        const loose = await collection({ record_schema: { ...declared, additional_fields: true } });
        expect(loose.record_schema.additional_fields).toBe(true);
        expect(
          (await t.call("POST", `${ws}/collections/${loose.id}/records`, {
            key: p.member,
            body: { fields: { amount: 1, note: { any: ["thing"] } } },
          })).status,
        ).toBe(201);
        const wrong = await t.call("POST", `${ws}/collections/${loose.id}/records`, { key: p.member, body: { fields: { amount: "one" } } });
        expect(wrong.body.error.details).toEqual([{ path: "/fields/amount", message: "must be a number" }]);
        const strict = await collection({ record_schema: declared });
        const refused = await t.call("POST", `${ws}/collections/${strict.id}/records`, { key: p.member, body: { fields: { note: "x" } } });
        expect(refused.status).toBe(400);
        expect(refused.body.error.details).toEqual([{
          path: "/fields/note",
          message: "is not a field of this collection's record_schema",
        }]);
      });

      test("the doctor infers an open collection's shape; its suggested schema applies with one PATCH, after which the doctor finds nothing to fix", async () => {
        const d = await personas(t, "coll-shape");
        const base = "/workspaces/coll-shape";
        const c = (await t.call("POST", `${base}/collections`, { key: d.member, body: { name: "Leads", archetype: "analysis" } })).body;
        for (
          const fields of [
            { company: "Initech", employees: 120, site: "https://initech.example", meta: { a: 1 } },
            { company: "Globex", employees: 80, founded: "1989-04-01", meta: "n/a" },
          ]
        ) {
          expect((await t.call("POST", `${base}/collections/${c.id}/records`, { key: d.member, body: { fields } })).status).toBe(201);
        }
        const report = (await t.call("GET", `${base}/collections/doctor`, { key: d.member })).body;
        expect(report.healthy).toBe(true);
        const shape = report.shapes.find((s: { collection_id: string }) => s.collection_id === c.id);
        expect(shape).toMatchObject({ open: true, records_scanned: 2, untallied_fields: 0 });
        expect(shape.fields).toEqual([
          { name: "company", records: 2, types: { string: 2 }, suggested: { type: "string" } },
          { name: "employees", records: 2, types: { number: 2 }, suggested: { type: "integer" } },
          { name: "founded", records: 1, types: { string: 1 }, suggested: { type: "date" } },
          { name: "meta", records: 2, types: { object: 1, string: 1 }, suggested: null },
          { name: "site", records: 1, types: { string: 1 }, suggested: { type: "url" } },
        ]);
        const applied = await t.call("PATCH", `${base}/collections/${c.id}`, {
          key: d.member,
          body: { record_schema: shape.suggested_record_schema, expected_version: c.version },
        });
        expect(applied.status).toBe(200);
        expect(applied.body.record_schema.fields.employees).toEqual({ type: "integer" });
        const after = (await t.call("GET", `${base}/collections/doctor?full=true`, { key: d.member })).body;
        expect(after.healthy).toBe(true);
        expect(after.findings.schema_mismatch.count).toBe(0);
        // Declared now: a text for employees is refused; meta, never declarable, is still accepted.
        const bad = await t.call("POST", `${base}/collections/${c.id}/records`, {
          key: d.member,
          body: { fields: { employees: "many", meta: [1] } },
        });
        expect(bad.body.error.details).toEqual([{ path: "/fields/employees", message: "must be a number" }]);
        // Declaring fields strictly later: records are not rewritten, the doctor lists what no longer fits.
        const strict = await t.call("PATCH", `${base}/collections/${c.id}`, {
          key: d.member,
          body: { record_schema: { fields: { company: { type: "string" } } } },
        });
        expect(strict.status).toBe(200);
        const drift = (await t.call("GET", `${base}/collections/doctor`, { key: d.member })).body;
        expect(drift.findings.schema_mismatch.count).toBe(2);
        expect(drift.shapes.some((s: { collection_id: string }) => s.collection_id === c.id)).toBe(false);
      });
    });

    describe("doctor", () => {
      test("finds stale stages, schema drift, missing entity links and duplicate entities; full vs sample says which", async () => {
        await t.bootstrap("coll-doc");
        const d = await personas(t, "coll-doc2");
        const base = `/workspaces/coll-doc2`;
        const c = (await t.call("POST", `${base}/collections`, {
          key: d.member,
          body: {
            name: "D",
            archetype: "pipeline",
            record_schema: { fields: { company: { type: "string" }, size: { type: "string" } }, stages: ["a", "b"] },
          },
        })).body;
        const r1 = (await t.call("POST", `${base}/collections/${c.id}/records`, {
          key: d.member,
          body: { fields: { company: "X", size: "big" }, status: "b" },
        })).body;
        await t.call("POST", `${base}/entities`, {
          key: d.member,
          body: { kind: "company", name: "Acme", dedup_key: "https://www.acme.com/" },
        });
        await t.call("POST", `${base}/entities`, { key: d.member, body: { kind: "company", name: "ACME", dedup_key: "acme.com" } });
        // a schema edit: stage b gone, size becomes a number
        expect(
          (await t.call("PATCH", `${base}/collections/${c.id}`, {
            key: d.member,
            body: { record_schema: { fields: { company: { type: "string" }, size: { type: "number" } }, stages: ["a"] } },
          })).status,
        ).toBe(200);
        const healthy = await t.call("GET", `${base}/collections/doctor`, { key: d.member });
        expect(healthy.body).toMatchObject({
          mode: "sample",
          complete: true,
          healthy: false,
          scanned: { collections: 1, records: 1, entities: 2 },
        });
        expect(healthy.body.findings.status_not_a_stage).toEqual({
          count: 1,
          items: [{ collection_id: c.id, record_id: r1.id, status: "b" }],
        });
        expect(healthy.body.findings.schema_mismatch.items[0]).toMatchObject({
          record_id: r1.id,
          errors: [{ path: "/fields/size", message: "must be a number" }],
        });
        expect(healthy.body.findings.duplicate_entities.count).toBe(1);
        const full = await t.call("GET", `${base}/collections/doctor?full=true`, { key: d.member });
        expect(full.body).toMatchObject({ mode: "full", sample_limits: null, complete: true });
        // the drifted record can still be edited piecemeal
        expect(
          (await t.call("PATCH", `${base}/collections/${c.id}/records/${r1.id}`, { key: d.member, body: { fields: { company: "Y" } } }))
            .status,
        ).toBe(200);
      });
    });
  });
}
