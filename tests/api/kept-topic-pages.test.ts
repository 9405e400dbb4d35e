/**
 * Kept encoded pages (ADR 049) on PGlite and on a PostgreSQL server: an app keeping tag pages and
 * searches answers byte for byte what an app keeping nothing answers, both on one database (two
 * server instances), with the clock moved up to and across a topic's staleness threshold, the
 * workspace's review interval changed, a topic written by the other instance, and the clock moved
 * back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createSqlStores, migrate, pgliteDriver, postgresJsDriver, type SqlDriver } from "../../adapters/postgres/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { type Personas, personas } from "../support/personas.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const DAY = 86_400_000;

const backends: [string, () => Promise<SqlDriver>][] = [
  ["pglite", () => pgliteDriver()],
  ["postgres", async () => postgresJsDriver(await freshDatabase(await sharedPostgres()))],
];

for (const [name, open] of backends) {
  describe(`${name}: kept tag pages and searches`, () => {
    let keptStores: Stores;
    let kept: TestApp; // keeps pages (the server's default on PostgreSQL and PGlite)
    let plain: TestApp; // keeps nothing (TOPIC_CACHE_MB=0): the reference
    let p: Personas;
    let at = Date.parse("2026-03-01T09:00:00.000Z");
    const clock = { now: () => new Date(at) };
    const ws = "/workspaces/kept-pages";

    beforeAll(async () => {
      const driver = await open();
      await migrate(driver);
      keptStores = createSqlStores(driver);
      kept = await makeTestApp(withAuthCache(keptStores, createLocalInvalidationBus()), { core: { clock } });
      // No authentication cache on the reference: it reads the workspace's settings as they are now.
      plain = await makeTestApp(createSqlStores(driver, { topicReadCache: false }), { core: { clock } });
      p = await personas(kept, "kept-pages");
    });
    afterAll(async () => {
      await keptStores?.close();
    });

    const raw = async (app: TestApp, path: string) => {
      const res = await app.app.handle(new Request(`http://localhost/api/v1${ws}${path}`, { headers: { "x-api-key": p.member } }));
      return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
    };
    const paths = [
      "/topics?tags=ops",
      "/topics?tags=ops&view=compact",
      "/topics?tags=ops&view=full",
      "/topics?tags=ops&limit=2&offset=1",
      "/watchers?tags=ops",
      "/topics/search?q=ledger",
      "/topics/search?q=ledger&include_notes=true&view=full",
    ];
    /** Every path, twice from the keeping app (built, then kept), equals the reference's bytes. */
    const sameBytes = async () => {
      for (const path of paths) {
        const reference = await raw(plain, path);
        expect(reference.status).toBe(200);
        for (let i = 0; i < 2; i++) expect({ path, ...(await raw(kept, path)) }).toEqual({ path, ...reference });
      }
    };
    const staleOf = async (slug: string) =>
      (JSON.parse((await raw(kept, "/topics?tags=ops")).body).topics as { slug: string; stale: boolean }[]).find((t) => t.slug === slug)
        ?.stale;
    const call = (method: string, path: string, key: string, body?: unknown) => kept.call(method, `${ws}${path}`, { key, body });

    test("the same bytes as a server keeping nothing, across a staleness threshold, a settings change and a write", async () => {
      const created = async (body: Record<string, unknown>) => {
        const res = await call("POST", "/topics", p.member, body);
        expect(res.status).toBe(201);
        return res.body as { slug: string; version: number };
      };
      const first = await created({ title: "Ledger close", body: "The ledger closes at month end. ".repeat(20), tags: ["ops"] });
      expect((await call("POST", `/topics/${first.slug}/approve`, p.owner)).status).toBe(201);
      const approvedFirst = at;
      at += 10 * DAY;
      const second = await created({
        title: "Ledger replay",
        body: "Replay the ledger from the journal.",
        tags: ["ops", "billing"],
        kind: "doc",
        source_url: "https://example.com/ledger",
        status: "proposed",
      });
      expect((await call("POST", `/topics/${second.slug}/approve`, p.owner)).status).toBe(201);
      await created({ title: "Ledger draft", body: "Not yet.", tags: ["ops"] });
      await created({ title: "Runbook", body: "No ledger word in the title.", tags: ["ops"] });
      at += DAY;
      await sameBytes();

      // What is served again is the kept encoding, not a page built again.
      const answer = await keptStores.topics.list((await kept.core.stores.workspaces.getBySlug("kept-pages"))!.id, { tags: ["ops"] }, {
        limit: 50,
        offset: 0,
      }, { bodyChars: 281 });
      expect(keptStores.topics.kept?.get(answer, "list\u0000summary\u000090")).toBeDefined();

      // The last instant the first topic is fresh, then the first it is stale (approved_at + 90 days).
      at = approvedFirst + 90 * DAY;
      await sameBytes();
      expect(await staleOf(first.slug)).toBe(false);
      at += 1;
      await sameBytes();
      expect(await staleOf(first.slug)).toBe(true);

      // A longer review interval makes it fresh again: the same answer, other views.
      expect((await kept.call("PATCH", ws, { key: p.owner, body: { settings: { review_interval_days: 365 } } })).status).toBe(200);
      await sameBytes();
      expect(await staleOf(first.slug)).toBe(false);

      // The other instance writes a topic: the version moves, nothing kept is served.
      const renamed = await plain.call("PATCH", `${ws}/topics/${second.slug}`, {
        key: p.member,
        body: { title: "Ledger replay, renamed" },
      });
      expect(renamed.status).toBe(200);
      await sameBytes();
      expect((await raw(kept, "/topics/search?q=ledger")).body).toContain("Ledger replay, renamed");

      // The clock moved back before a page was built: that page is built again.
      at = approvedFirst + DAY;
      await sameBytes();
    });
  });
}
