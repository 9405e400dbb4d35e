import { beforeAll, describe, expect, test } from "bun:test";
import { hashRawKey } from "../../core/access/raw-key.ts";
import type { Stores } from "../../core/stores.ts";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HOSTILE_BODY = [
  "# Runbook",
  "",
  "- first step",
  "- second step",
  "",
  "<script>window.__pwned=1</script>",
  "",
  '<img src=x onerror="window.__pwned=1">',
  "",
  "[click me](javascript:window.__pwned=1)",
  "",
  '<a href="javascript:window.__pwned=1">raw anchor</a>',
  "",
  "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "",
  "[vb](vbscript:msgbox)",
  "",
  '<iframe src="https://evil.example"></iframe> <svg onload="window.__pwned=1"></svg>',
  "",
  "[safe](https://example.com/docs)",
].join("\n");

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runSharingApiSuite("sharing API on memory", async () => createMemoryStores());
runSharingApiSuite("sharing API on pglite", async () => pglite);

function runSharingApiSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    const ws = "/workspaces/sharing";

    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "sharing");
    });

    async function create(body: Record<string, unknown>, key = p.member) {
      const res = await t.call("POST", `${ws}/topics`, { key, body });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    async function share(slug: string, key = p.member) {
      const res = await t.call("POST", `${ws}/topics/${slug}/share`, { key });
      if (res.status !== 201) throw new Error(`share: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { token: string; url: string; path: string; created_at: string };
    }

    /** A public request, outside /api/v1 unless `api` is set, with no credentials. */
    async function visit(path: string, opts: { api?: boolean; headers?: Record<string, string> } = {}) {
      const res = await t.app.handle(new Request(`http://localhost${opts.api ? "/api/v1" : ""}${path}`, { headers: opts.headers }));
      return { status: res.status, headers: res.headers, text: await res.text() };
    }

    describe("public links", () => {
      test("POST /share issues a 256-bit token; the page answers at the root and under /api/v1 without credentials", async () => {
        const topic = await create({ title: "Deploy guide", body: "# Steps\n\n- build\n- ship", tags: ["ops", "release"] });
        const res = await t.call("POST", `${ws}/topics/${topic.slug}/share`, { key: p.member });
        expect(res.status).toBe(201);
        const { token, url, path, created_at } = res.body;
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(path).toBe(`/s/${token}`);
        expect(url).toBe(`http://localhost/s/${token}`);
        expect(Date.parse(created_at)).not.toBeNaN();
        for (const api of [false, true]) {
          const page = await visit(path, { api });
          expect(page.status).toBe(200);
          expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
          expect(page.headers.get("content-security-policy")).toBe(CSP);
          expect(page.headers.get("x-content-type-options")).toBe("nosniff");
          expect(page.headers.get("referrer-policy")).toBe("no-referrer");
          expect(page.headers.get("cache-control")).toBe("no-store");
          expect(page.text).toContain("<title>Deploy guide</title>");
          expect(page.text).toContain("<h1>Steps</h1>");
          expect(page.text).toContain("<li>build</li>");
          expect(page.text).toContain('data-trust="draft"');
          expect(page.text).toContain("<li>ops</li>");
          // Nothing of the workspace or its people.
          expect(page.text).not.toContain("sharing");
          expect(page.text).not.toContain(topic.id);
        }
        const raw = await visit(`${path}/raw`);
        expect(raw.status).toBe(200);
        expect(raw.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
        expect(raw.headers.get("cache-control")).toBe("no-store");
        expect(raw.text).toBe("# Steps\n\n- build\n- ship");
        expect((await visit(`${path}/raw`, { api: true })).text).toBe("# Steps\n\n- build\n- ship");
      });

      test("only the token's SHA-256 is stored", async () => {
        const topic = await create({ title: "Hashed" });
        const { token } = await share(topic.slug);
        const workspaceId = (await t.call("GET", ws, { key: p.owner })).body.id;
        const link = await t.core.stores.shareLinks.get(workspaceId, topic.id);
        expect(link?.token_hash).toBe(await hashRawKey(token));
        expect(JSON.stringify(link)).not.toContain(token);
      });

      test("the page shows the topic as it is now, with its trust verdict", async () => {
        const topic = await create({ title: "Living doc", body: "v1" });
        const { path } = await share(topic.slug);
        await t.call("PATCH", `${ws}/topics/${topic.slug}`, { key: p.member, body: { title: "Living doc, edited", body: "**v2**" } });
        await t.call("POST", `${ws}/topics/${topic.slug}/propose`, { key: p.member });
        let page = await visit(path);
        expect(page.text).toContain('<h1 id="topic-title">Living doc, edited</h1>');
        expect(page.text).toContain("<strong>v2</strong>");
        expect(page.text).toContain('data-trust="proposed"');
        expect(page.text).toContain(">Proposed<");
        await t.call("POST", `${ws}/topics/${topic.slug}/approve`, { key: p.admin });
        page = await visit(path);
        expect(page.text).toContain('data-trust="reviewed"');
        expect(page.text).toContain(">Reviewed<");
        expect(page.text).not.toContain('data-flag="stale"');
        const realClock = t.core.clock;
        try {
          t.core.clock = { now: () => new Date(Date.now() + 91 * 86_400_000) };
          expect((await visit(path)).text).toContain('data-flag="stale"');
        } finally {
          t.core.clock = realClock;
        }
      });

      test("a hostile body is escaped in the page (no script, no handler, no javascript: link) and kept as is in /raw", async () => {
        const topic = await create({ title: "<script>window.__pwned=1</script> Title", body: HOSTILE_BODY, tags: ["<b>tag</b>"] });
        const { path } = await share(topic.slug);
        const page = await visit(path);
        expect(page.status).toBe(200);
        const html = page.text;
        expect(html).not.toMatch(/<script/i);
        expect(html).not.toMatch(/<img[^>]*onerror/i);
        expect(html).not.toMatch(/<(iframe|svg)/i);
        expect(html).not.toMatch(/href="(javascript|vbscript|data):/i);
        expect(html).not.toContain("<b>tag</b>");
        // The text is shown, escaped.
        expect(html).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
        expect(html).toContain("&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;");
        expect(html).toContain("&lt;b&gt;tag&lt;/b&gt;");
        expect(html).toContain("[click me](javascript:window.__pwned=1)");
        // Markdown still renders, and safe links stay links.
        expect(html).toContain("<h1>Runbook</h1>");
        expect(html).toContain("<li>first step</li>");
        expect(html).toContain('<a href="https://example.com/docs" rel="nofollow ugc noopener noreferrer">safe</a>');
        expect(page.headers.get("content-security-policy")).toBe(CSP);
        const raw = await visit(`${path}/raw`);
        expect(raw.text).toBe(HOSTILE_BODY);
        expect(raw.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
        expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
      });

      test("a new link revokes the previous one; DELETE revokes at once; GET tells whether one is active", async () => {
        const topic = await create({ title: "Rotating" });
        const status = () => t.call("GET", `${ws}/topics/${topic.slug}/share`, { key: p.member });
        expect((await status()).body).toEqual({ active: false, created_at: null, created_by: null });
        const first = await share(topic.slug);
        const second = await share(topic.slug, p.owner);
        expect(second.token).not.toBe(first.token);
        expect((await visit(first.path)).status).toBe(404);
        expect((await visit(second.path)).status).toBe(200);
        const active = (await status()).body;
        expect(active).toMatchObject({ active: true, created_at: second.created_at });
        expect(active.created_by).toBeString();

        const revoked = await t.call("DELETE", `${ws}/topics/${topic.slug}/share`, { key: p.member });
        expect(revoked.status).toBe(200);
        expect(revoked.body).toMatchObject({ revoked: true });
        expect(revoked.body.id).toBeString();
        const gone = await visit(second.path);
        expect(gone.status).toBe(404);
        expect(gone.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(gone.headers.get("content-security-policy")).toBe(CSP);
        expect(gone.headers.get("cache-control")).toBe("no-store");
        expect(gone.text).toContain("Link not found");
        const goneApi = await visit(second.path, { api: true });
        expect(goneApi.status).toBe(404);
        const goneRaw = await visit(`${second.path}/raw`);
        expect(goneRaw.status).toBe(404);
        expect(JSON.parse(goneRaw.text).error.code).toBe("NOT_FOUND");
        expect(goneRaw.headers.get("cache-control")).toBe("no-store");
        expect((await status()).body.active).toBe(false);
        const again = await t.call("DELETE", `${ws}/topics/${topic.slug}/share`, { key: p.member });
        expect(again.status).toBe(404);
        expect(again.body.error.code).toBe("NOT_FOUND");
      });

      test("unknown and malformed tokens are 404", async () => {
        const fake = "A".repeat(43);
        for (const path of [`/s/${fake}`, "/s/short", `/s/${"x".repeat(300)}`, "/s/%3Cscript%3E", `/s/${fake}/raw`, "/s/short/raw"]) {
          expect((await visit(path)).status, path).toBe(404);
          expect((await visit(path, { api: true })).status, path).toBe(404);
        }
      });

      test("archived topics cannot be shared and their links answer 404; deleting the topic removes its link", async () => {
        const topic = await create({ title: "Soon archived" });
        const { path } = await share(topic.slug);
        await t.call("POST", `${ws}/topics/${topic.slug}/archive`, { key: p.member });
        expect((await visit(path)).status).toBe(404);
        expect((await visit(`${path}/raw`)).status).toBe(404);
        const refused = await t.call("POST", `${ws}/topics/${topic.slug}/share`, { key: p.member });
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe("CONFLICT");

        const doomed = await create({ title: "Doomed" });
        const link = await share(doomed.slug);
        expect((await t.call("DELETE", `${ws}/topics/${doomed.slug}`, { key: p.owner })).status).toBe(200);
        expect((await visit(link.path)).status).toBe(404);
      });

      test("sharing needs credentials of this workspace and the right to write; another workspace's key gets 404", async () => {
        const topic = await create({ title: "Guarded" });
        expect((await t.call("POST", `${ws}/topics/${topic.slug}/share`)).status).toBe(401);
        expect((await t.call("POST", `${ws}/topics/no-such-topic/share`, { key: p.member })).status).toBe(404);
        const other = await t.bootstrap("sharing-other");
        for (
          const [method, path] of [
            ["POST", `${ws}/topics/${topic.slug}/share`],
            ["GET", `${ws}/topics/${topic.slug}/share`],
            ["DELETE", `${ws}/topics/${topic.slug}/share`],
          ] as const
        ) {
          const res = await t.call(method, path, { key: other.key });
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.body.error.message).toContain("Workspace");
        }
        // A faceless key may write, so it may share.
        expect((await t.call("POST", `${ws}/topics/${topic.slug}/share`, { key: p.service })).status).toBe(201);
      });

      test("the public pages are rate limited per client address", async () => {
        const limited = await makeTestApp(undefined, { rateLimits: { perIp: { limit: 2, windowMs: 60_000 } } });
        const from = (ip: string) =>
          limited.app.handle(new Request(`http://localhost/s/${"B".repeat(43)}`, { headers: { "x-forwarded-for": ip } }));
        expect((await from("10.1.1.1")).status).toBe(404);
        const second = await from("10.1.1.1");
        expect(second.headers.get("ratelimit-remaining")).toBe("0");
        const third = await from("10.1.1.1");
        expect(third.status).toBe(429);
        expect((await third.json()).error.code).toBe("RATE_LIMITED");
        expect((await from("10.1.1.2")).status).toBe(404);
      });
    });

    describe("inbox", () => {
      const inbox = (key: string, query = "") => t.call("GET", `${ws}/shared${query}`, { key });

      test("share-with puts the note in each recipient's inbox, once per member, with the topic's slug, title and trust", async () => {
        const topic = await create({ title: "Read this", status: "proposed" });
        const before = (await inbox(p.admin)).body.total;
        const res = await t.call("POST", `${ws}/topics/${topic.slug}/share-with`, {
          key: p.member,
          body: { member_ids: [p.adminMemberId, p.ownerMemberId, p.adminMemberId], message: "Please review" },
        });
        expect(res.status).toBe(201);
        expect(res.body.shared).toHaveLength(2);
        const me = (await t.call("GET", "/me", { key: p.member })).body;
        for (const s of res.body.shared) {
          expect(s).toMatchObject({
            topic_id: topic.id,
            sender_id: me.identity.id,
            message: "Please review",
            read_at: null,
            topic: { slug: topic.slug, title: "Read this", trust: "proposed", status: "proposed", stale: false, drifted: false },
          });
        }
        expect(res.body.shared.map((s: any) => s.recipient_member_id).sort()).toEqual([p.adminMemberId, p.ownerMemberId].sort());

        const listed = await inbox(p.admin);
        expect(listed.status).toBe(200);
        expect(listed.body.total).toBe(before + 1);
        expect(listed.body.shared[0]).toMatchObject({
          recipient_member_id: p.adminMemberId,
          topic: { slug: topic.slug, title: "Read this", trust: "proposed" },
        });
        // The sender's own inbox does not have it.
        expect((await inbox(p.member)).body.shared.map((s: any) => s.topic_id)).not.toContain(topic.id);
      });

      test("the inbox lists newest first, pages, and filters unread; read and read-all mark entries", async () => {
        const a = await create({ title: "Older note" });
        const b = await create({ title: "Newer note" });
        await t.call("POST", "/workspaces/sharing/shared/read-all", { key: p.owner });
        for (const topic of [a, b]) {
          const r = await t.call("POST", `${ws}/topics/${topic.slug}/share-with`, {
            key: p.admin,
            body: { member_ids: [p.ownerMemberId] },
          });
          expect(r.status).toBe(201);
        }
        const unread = await inbox(p.owner, "?unread=true");
        expect(unread.body.total).toBe(2);
        expect(unread.body.shared.map((s: any) => s.topic.title)).toEqual(["Newer note", "Older note"]);
        const first = await inbox(p.owner, "?unread=true&limit=1");
        expect([first.body.shared.length, first.body.total, first.body.has_more]).toEqual([1, 2, true]);

        const id = unread.body.shared[1].id;
        const read = await t.call("POST", `${ws}/shared/${id}/read`, { key: p.owner });
        expect(read.status).toBe(201);
        expect(read.body).toMatchObject({ id, topic: { title: "Older note" } });
        expect(read.body.read_at).toBeString();
        const again = await t.call("POST", `${ws}/shared/${id}/read`, { key: p.owner });
        expect(again.body.read_at).toBe(read.body.read_at);
        expect((await inbox(p.owner, "?unread=true")).body.total).toBe(1);
        expect((await inbox(p.owner, "?unread=false")).body.shared.map((s: any) => s.id)).toContain(id);

        const all = await t.call("POST", `${ws}/shared/read-all`, { key: p.owner });
        expect(all.status).toBe(201);
        expect(all.body).toEqual({ updated: 1 });
        expect((await t.call("POST", `${ws}/shared/read-all`, { key: p.owner })).body).toEqual({ updated: 0 });
        expect((await inbox(p.owner, "?unread=true")).body.total).toBe(0);
      });

      test("only the recipient marks an entry read: another member's entry, or an unknown one, is 404", async () => {
        const topic = await create({ title: "Private inbox" });
        const sent = await t.call("POST", `${ws}/topics/${topic.slug}/share-with`, {
          key: p.owner,
          body: { member_ids: [p.adminMemberId] },
        });
        const id = sent.body.shared[0].id;
        expect((await t.call("POST", `${ws}/shared/${id}/read`, { key: p.member })).status).toBe(404);
        expect((await t.call("POST", `${ws}/shared/${id}/read`, { key: p.owner })).status).toBe(404);
        expect((await t.call("POST", `${ws}/shared/01939a3e-0000-7000-8000-000000000000/read`, { key: p.admin })).status).toBe(404);
        expect((await t.call("POST", `${ws}/shared/not-an-id/read`, { key: p.admin })).status).toBe(400);
        expect((await t.call("POST", `${ws}/shared/${id}/read`, { key: p.admin })).status).toBe(201);
      });

      test("bad bodies and queries are 400 VALIDATION_FAILED and share nothing", async () => {
        const topic = await create({ title: "Validated" });
        const other = await t.bootstrap("sharing-elsewhere");
        const stranger = (await t.call("GET", "/workspaces/sharing-elsewhere/members", { key: other.key })).body.members[0].id;
        const before = (await inbox(p.admin)).body.total;
        for (
          const body of [
            {},
            { member_ids: [] },
            { member_ids: Array.from({ length: 51 }, () => p.adminMemberId) },
            { member_ids: ["not-a-uuid"] },
            { member_ids: [p.adminMemberId], colour: "red" },
            { member_ids: [p.adminMemberId], message: "" },
            { member_ids: [p.adminMemberId], message: "x".repeat(2001) },
            { member_ids: [p.adminMemberId], message: 5 },
          ]
        ) {
          const res = await t.call("POST", `${ws}/topics/${topic.slug}/share-with`, { key: p.member, body });
          expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
          expect(res.body.error.code).toBe("VALIDATION_FAILED");
        }
        const ghost = "01939a3e-0000-7000-8000-000000000000";
        const mixed = await t.call("POST", `${ws}/topics/${topic.slug}/share-with`, {
          key: p.member,
          body: { member_ids: [p.adminMemberId, stranger, ghost] },
        });
        expect(mixed.status).toBe(400);
        expect(mixed.body.error.code).toBe("VALIDATION_FAILED");
        expect(mixed.body.error.message).toContain(stranger);
        expect(mixed.body.error.message).toContain(ghost);
        expect(mixed.body.error.details.map((d: any) => d.path)).toEqual(["/member_ids/1", "/member_ids/2"]);
        expect(mixed.body.error.message).not.toContain(p.adminMemberId);
        expect((await inbox(p.admin)).body.total).toBe(before);
        for (const query of ["?unread=maybe", "?limit=500", "?limit=0", "?offset=-1", "?colour=red"]) {
          expect((await inbox(p.admin, query)).status, query).toBe(400);
        }
        expect(
          (await t.call("POST", `${ws}/topics/no-such-topic/share-with`, { key: p.member, body: { member_ids: [p.adminMemberId] } }))
            .status,
        ).toBe(
          404,
        );
      });

      test("a faceless key may share but has no inbox (403); another workspace's key gets 404", async () => {
        const topic = await create({ title: "From a robot" });
        const sent = await t.call("POST", `${ws}/topics/${topic.slug}/share-with`, {
          key: p.service,
          body: { member_ids: [p.memberMemberId] },
        });
        expect(sent.status).toBe(201);
        expect(sent.body.shared[0].sender_id).toBeNull();
        expect((await inbox(p.service)).status).toBe(403);
        expect((await t.call("POST", `${ws}/shared/read-all`, { key: p.service })).status).toBe(403);
        expect((await t.call("POST", `${ws}/shared/${sent.body.shared[0].id}/read`, { key: p.service })).status).toBe(403);

        const other = await t.bootstrap("sharing-tenant");
        for (
          const [method, path, body] of [
            ["GET", `${ws}/shared`, undefined],
            ["POST", `${ws}/shared/read-all`, undefined],
            ["POST", `${ws}/shared/${sent.body.shared[0].id}/read`, undefined],
            ["POST", `${ws}/topics/${topic.slug}/share-with`, { member_ids: [p.memberMemberId] }],
          ] as const
        ) {
          const res = await t.call(method, path, { key: other.key, body });
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(res.body.error.message).toContain("Workspace");
        }
        expect((await inbox(p.member)).body.shared.map((s: any) => s.id)).toContain(sent.body.shared[0].id);
      });
    });
  });
}

describe("sharing in OpenAPI", () => {
  test("every sharing route is documented with its error statuses", async () => {
    const t = await makeTestApp();
    const doc = (await t.call("GET", "/openapi.json")).body;
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    const expected: Array<[string, string, string[]]> = [
      ["/api/v1/workspaces/{slug}/topics/{topic}/share", "post", ["201", "401", "403", "404", "409", "429"]],
      ["/api/v1/workspaces/{slug}/topics/{topic}/share", "get", ["200", "401", "404", "429"]],
      ["/api/v1/workspaces/{slug}/topics/{topic}/share", "delete", ["200", "401", "403", "404", "429"]],
      ["/api/v1/workspaces/{slug}/topics/{topic}/share-with", "post", ["201", "400", "401", "403", "404", "413", "429"]],
      ["/api/v1/workspaces/{slug}/shared", "get", ["200", "400", "401", "403", "404", "429"]],
      ["/api/v1/workspaces/{slug}/shared/read-all", "post", ["201", "401", "403", "404", "429"]],
      ["/api/v1/workspaces/{slug}/shared/{id}/read", "post", ["201", "400", "401", "403", "404", "429"]],
      ["/api/v1/s/{token}", "get", ["200", "404", "429"]],
      ["/api/v1/s/{token}/raw", "get", ["200", "404", "429"]],
      ["/s/{token}", "get", ["200", "404", "429"]],
      ["/s/{token}/raw", "get", ["200", "404", "429"]],
    ];
    for (const [path, method, statuses] of expected) {
      const o = op(path, method);
      expect(o, `${method} ${path}`).toBeDefined();
      expect(Object.keys(o.responses).sort(), `${method} ${path}`).toEqual(statuses.sort());
      expect(o.description, `${method} ${path}`).toBeString();
    }
    expect(Object.keys(op("/api/v1/s/{token}", "get").responses["200"].content)).toEqual(["text/html"]);
    expect(Object.keys(op("/api/v1/s/{token}/raw", "get").responses["200"].content)).toEqual(["text/markdown"]);
    expect(op("/api/v1/s/{token}", "get").security).toEqual([]);
  });
});
