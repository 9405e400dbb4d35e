import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { openPostgresStores } from "../../adapters/postgres/mod.ts";
import { createPostgresInvalidationBus } from "../../adapters/postgres/notify-bus.ts";
import type { InvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { Stores } from "../../core/stores.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/**
 * Two server instances, each with its own authentication cache, on one PostgreSQL database:
 * a change made through one must be seen by the other although both cache.
 */
let a: TestApp;
let b: TestApp;
const closers: Array<Stores | InvalidationBus> = [];

async function instance(url: string): Promise<TestApp> {
  const bus = await createPostgresInvalidationBus(url);
  const stores = withAuthCache(await openPostgresStores(url), bus);
  closers.push(bus, stores);
  return makeTestApp(stores);
}

/** Invalidations cross instances as PostgreSQL notifications: allow them a bounded moment. */
async function eventually(check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < 2000) {
    if (await check()) return performance.now() - start;
    await Bun.sleep(5);
  }
  throw new Error("the other instance never saw the change");
}

beforeAll(async () => {
  const url = await freshDatabase(await sharedPostgres());
  a = await instance(url);
  b = await instance(url);
});
afterAll(async () => {
  for (const c of closers.reverse()) await c.close();
});

describe("two instances on one database", () => {
  test("a key revoked through one instance is refused by the other", async () => {
    const { key, slug } = await a.bootstrap("two-nodes");
    const extra = await a.call("POST", `/workspaces/${slug}/api-keys`, { key, body: { name: "doomed" } });
    expect((await b.call("GET", `/workspaces/${slug}`, { key: extra.body.key })).status).toBe(200); // now cached on b
    expect((await a.call("DELETE", `/workspaces/${slug}/api-keys/${extra.body.id}`, { key })).status).toBe(200);
    expect((await a.call("GET", `/workspaces/${slug}`, { key: extra.body.key })).status).toBe(401);
    await eventually(async () => (await b.call("GET", `/workspaces/${slug}`, { key: extra.body.key })).status === 401);
  });

  test("a role change and a workspace rename through one instance reach the other", async () => {
    const { key, slug } = await a.bootstrap("two-nodes-roles");
    const m = await a.call("POST", `/workspaces/${slug}/members`, { key, body: { email: "adm@example.com", role: "admin" } });
    const mk = await a.call("POST", `/workspaces/${slug}/api-keys`, { key, body: { member_id: m.body.id } });
    expect((await b.call("PATCH", `/workspaces/${slug}/plan`, { key: mk.body.key, body: { plan: "team" } })).status).toBe(200);
    await a.call("PATCH", `/workspaces/${slug}/members/${m.body.id}`, { key, body: { role: "member" } });
    await eventually(async () =>
      (await b.call("PATCH", `/workspaces/${slug}/plan`, { key: mk.body.key, body: { plan: "team" } })).status === 403
    );
    await a.call("PATCH", `/workspaces/${slug}`, { key, body: { name: "Renamed" } });
    await eventually(async () => (await b.call("GET", `/workspaces/${slug}`, { key })).body.name === "Renamed");
  });
});
