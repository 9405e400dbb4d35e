import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "redis";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { openEventStream } from "../support/event-stream.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { type RedisServer, sharedRedis, startRedis } from "../support/redis-server.ts";

/**
 * Real server processes (`bun server/main.ts`), as an operator runs them behind a load balancer:
 * one PostgreSQL database, one Redis.
 */
const SECRET_KEY = "multi-instance-secret-multi-instance-secret";
const servers: AppServer[] = [];

async function server(databaseUrl: string, redisUrl: string, env: Record<string, string> = {}): Promise<AppServer> {
  const s = await startAppServer({
    name: `server-${servers.length}`,
    databaseUrl,
    env: { SECRET_KEY, REDIS_URL: redisUrl, LOG_LEVEL: "warn", ...env },
  });
  servers.push(s);
  return s;
}

async function call(s: AppServer, method: string, path: string, key?: string, body?: unknown) {
  const res = await fetch(`${s.origin}/api/v1${path}`, {
    method,
    headers: { ...(key ? { "x-api-key": key } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

afterAll(async () => {
  for (const s of servers.reverse()) await s.stop();
});

/** The level-2 cache is filled off the request path: wait (bounded) until it holds an entry. */
async function sharedCacheFilled(client: { keys(pattern: string): Promise<string[]> }): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if ((await client.keys("wks:auth:*")).length > 0) return true;
    await Bun.sleep(20);
  }
  return false;
}

async function probeClient(url: string) {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on("error", () => {}); // the server under test is stopped on purpose
  await client.connect();
  return client;
}

describe("two server instances on one PostgreSQL and one Redis", () => {
  let a: AppServer;
  let b: AppServer;
  beforeAll(async () => {
    const [db, redis] = await Promise.all([sharedPostgres().then(freshDatabase), sharedRedis()]);
    [a, b] = await Promise.all([server(db, redis), server(db, redis)]);
  });

  test("a key revoked through one instance is refused by the other on the next request", async () => {
    const boot = await call(a, "POST", "/workspaces", undefined, { slug: "multi-a", owner_email: "multi-a@example.com" });
    const owner = boot.body.api_key.key;
    const extra = await call(a, "POST", "/workspaces/multi-a/api-keys", owner, { name: "to revoke" });
    expect((await call(b, "GET", "/workspaces/multi-a", extra.body.key)).status).toBe(200); // now cached by b
    expect((await call(a, "DELETE", `/workspaces/multi-a/api-keys/${extra.body.id}`, owner)).status).toBe(200);
    expect((await call(b, "GET", "/workspaces/multi-a", extra.body.key)).status).toBe(401);
    expect((await call(a, "GET", "/workspaces/multi-a", extra.body.key)).status).toBe(401);
  });

  test("an anchor written through one instance is matched by the other on the next request", async () => {
    const boot = await call(a, "POST", "/workspaces", undefined, { slug: "multi-anchors", owner_email: "multi-anchors@example.com" });
    const key = boot.body.api_key.key;
    const match = async (s: AppServer) => {
      const res = await fetch(`${s.origin}/api/v1/workspaces/multi-anchors/topics/match-files`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json", "x-service-session": "multi" },
        body: JSON.stringify({ paths: ["src/billing/invoice.ts"] }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { files: { topics: { title: string }[] }[] }).files[0]!.topics.map((t) => t.title);
    };
    await call(a, "POST", "/workspaces/multi-anchors/topics", key, { title: "Billing A", anchors: ["src/billing/**"] });
    expect(await match(b)).toEqual(["Billing A"]); // b now holds the workspace's anchors
    const second = await call(a, "POST", "/workspaces/multi-anchors/topics", key, { title: "Invoices", anchors: ["src/billing/*.ts"] });
    expect(second.status).toBe(201);
    expect((await match(b)).sort()).toEqual(["Billing A", "Invoices"]);
    const moved = await call(a, "PATCH", `/workspaces/multi-anchors/topics/${second.body.slug}`, key, { anchors: ["lib/**"] });
    expect(moved.status).toBe(200);
    expect(await match(b)).toEqual(["Billing A"]);
  });

  test("a topic written through one instance shows in the other's next match-files and retrieve (heads kept under the topic version)", async () => {
    const boot = await call(a, "POST", "/workspaces", undefined, { slug: "multi-heads", owner_email: "multi-heads@example.com" });
    const key = boot.body.api_key.key;
    const ws = "/workspaces/multi-heads";
    let sessions = 0;
    const post = async (s: AppServer, route: string, body: unknown) => {
      const res = await fetch(`${s.origin}/api/v1${ws}/topics/${route}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json", "x-service-session": `multi-heads-${sessions++}` },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as any;
    };
    const matched = async (s: AppServer) =>
      (await post(s, "match-files", { paths: ["src/billing/invoice.ts"] })).files[0].topics.map((t: any) => `${t.title}/${t.status}`);
    const retrieved = async (s: AppServer) =>
      (await post(s, "retrieve", { question: "ledger postings", paths: ["src/billing/invoice.ts"] })).topics
        .map((t: any) => `${t.title}: ${t.text}`);
    const first = await call(a, "POST", `${ws}/topics`, key, {
      title: "Billing",
      body: "Invoices are numbered.",
      status: "proposed",
      anchors: ["src/billing/**"],
    });
    expect(await matched(b)).toEqual(["Billing/proposed"]); // b now keeps its head
    expect(await retrieved(b)).toEqual(["Billing: Invoices are numbered."]);
    // Writes that leave the anchors alone: title, body, status; and a new topic found by a word.
    expect(
      (await call(a, "PATCH", `${ws}/topics/${first.body.slug}`, key, { title: "Billing rules", body: "Invoices post to the ledger." }))
        .status,
    )
      .toBe(200);
    const ledger = await call(a, "POST", `${ws}/topics`, key, {
      title: "Ledger postings",
      body: "Each invoice posts twice.",
      status: "proposed",
    });
    expect(ledger.status).toBe(201);
    expect(await matched(b)).toEqual(["Billing rules/proposed"]);
    expect(await retrieved(b)).toEqual(["Billing rules: Invoices post to the ledger.", "Ledger postings: Each invoice posts twice."]);
    expect((await call(a, "POST", `${ws}/topics/${first.body.slug}/archive`, key)).status).toBe(201);
    expect(await matched(b)).toEqual([]);
    expect(await retrieved(b)).toEqual(["Ledger postings: Each invoice posts twice."]);
  });

  test("an event published through one instance reaches a subscriber of the other", async () => {
    const boot = await call(a, "POST", "/workspaces", undefined, { slug: "multi-events", owner_email: "multi-events@example.com" });
    const key = boot.body.api_key.key;
    const stream = await openEventStream((init) => fetch(`${b.origin}/api/v1/workspaces/multi-events/events/stream`, init), key);
    // the subscription on b is live once its Redis SUBSCRIBE is acknowledged; give it a bounded moment
    let received;
    for (let attempt = 0; attempt < 20 && !received; attempt++) {
      await call(a, "POST", "/workspaces/multi-events/areas", key, { name: `Area ${attempt}` });
      received = await stream.next((e) => e.type === "area.created", 250).catch(() => undefined);
    }
    expect(received).toMatchObject({ type: "area.created", data: { name: expect.stringMatching(/^Area /) } });
    stream.close();
  });
});

describe("Redis going away and coming back", () => {
  let redis: RedisServer;
  let s: AppServer;
  let key: string;
  beforeAll(async () => {
    redis = await startRedis();
    s = await server(await freshDatabase(await sharedPostgres()), redis.url, { RATE_LIMIT_PER_KEY: "1000" });
    const boot = await call(s, "POST", "/workspaces", undefined, { slug: "faulty", owner_email: "faulty@example.com" });
    key = boot.body.api_key.key;
  });
  afterAll(async () => {
    await redis.stop();
  });

  test("requests keep succeeding while Redis is down, and Redis is used again once it is back", async () => {
    const probe = await probeClient(redis.url);
    const first = await call(s, "GET", "/workspaces/faulty", key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("999"); // counted in Redis
    expect(await sharedCacheFilled(probe)).toBe(true); // the shared cache holds the key
    probe.destroy();

    await redis.stop();
    for (let i = 0; i < 5; i++) {
      const read = await call(s, "GET", "/workspaces/faulty", key);
      expect(read.status).toBe(200);
      expect(read.headers.get("ratelimit-remaining")).toBeNull(); // limiter failed open
    }
    expect((await call(s, "POST", "/workspaces/faulty/areas", key, { name: "While Redis is down" })).status).toBe(201);

    await redis.restart();
    const again = await probeClient(redis.url);
    let remaining: string | null = null;
    for (let i = 0; i < 100 && remaining === null; i++) {
      await Bun.sleep(50);
      remaining = (await call(s, "GET", "/workspaces/faulty", key)).headers.get("ratelimit-remaining");
    }
    expect(remaining).not.toBeNull(); // the limiter counts in Redis again, without a restart of the server
    await call(s, "POST", "/workspaces/faulty/api-keys", key, { name: "after restart" }); // an invalidation of the workspace
    const fresh = await call(s, "POST", "/workspaces/faulty/api-keys", key, { name: "used" });
    expect((await call(s, "GET", "/workspaces/faulty", fresh.body.key)).status).toBe(200);
    expect(await sharedCacheFilled(again)).toBe(true); // and the shared cache is filled again
    again.destroy();
  });
});
