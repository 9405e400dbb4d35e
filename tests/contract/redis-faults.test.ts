/**
 * What the Redis adapters do when Redis goes away and comes back, against a server of their own:
 * stopped (connections refused), frozen (SIGSTOP: connections open, no answers), absent at boot,
 * and cut off by a partition while it keeps its data. Each adapter must answer within 1 s and
 * fail the way its port says, then work again on the same objects once Redis is back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect as tcpConnect, createServer, type Server, type Socket } from "node:net";
import { createClient } from "redis";
import type { KeyMatch } from "../../core/access/ports.ts";
import type { RedisRateCounter } from "../../adapters/redis/rate-counter.ts";
import { type WorkspaceEvent, workspaceEvent } from "../../core/events/event.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { AuthCacheL2 } from "../../adapters/cache/auth-cache-l2.ts";
import type { InvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import {
  authEntryKey,
  createRedisAuthCacheL2,
  createRedisEventBus,
  createRedisInvalidationBus,
  createRedisRateCounter,
  RedisConnection,
  type RedisEventBus,
  type RedisLogger,
  RedisUnavailableError,
} from "../../adapters/redis/mod.ts";
import { type RedisServer, startRedis } from "../support/redis-server.ts";
import { eventually } from "./event-bus.contract.ts";
import { bundle } from "./fixtures.ts";

const FAST_MS = 1_000;
const measured: Record<string, number> = {};

/** Runs `work`, records how long it took under `label`, and checks it was fast. */
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    const ms = performance.now() - t0;
    measured[label] = Math.round(ms * 10) / 10;
    expect(ms).toBeLessThan(FAST_MS);
  }
}

function logger(): RedisLogger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, log: (level, msg) => void lines.push(`${level}: ${msg}`) };
}

const matchOf = (): KeyMatch => {
  const b = bundle();
  return { key: b.apiKey, workspace: b.workspace, member: b.member };
};
const event = (ws: string): WorkspaceEvent => workspaceEvent(ws, "member.added", null, new Date(), { n: uuidv7() });

interface Instance {
  conn: RedisConnection;
  log: ReturnType<typeof logger>;
  counter: RedisRateCounter;
  l2: AuthCacheL2;
  events: RedisEventBus;
  inv: InvalidationBus;
  heard: string[];
}

async function instance(url: string): Promise<Instance> {
  const log = logger();
  const conn = await RedisConnection.connect(url, { logger: log, bootWaitMs: 300 });
  const inv = await createRedisInvalidationBus(conn);
  const heard: string[] = [];
  inv.subscribe((id) => heard.push(id));
  return {
    conn,
    log,
    counter: createRedisRateCounter(conn),
    l2: createRedisAuthCacheL2(conn),
    events: createRedisEventBus(conn),
    inv,
    heard,
  };
}

async function shut(i: Instance | undefined) {
  if (!i) return;
  await i.events.close();
  await i.inv.close();
  await i.conn.close();
}

const stars = (i: Instance) => i.heard.filter((h) => h === "*").length;

/** Everything works between `a` and `b`; returns after checking each adapter once. */
async function worksAgain(a: Instance, b: Instance) {
  const ws = uuidv7();
  expect((await a.counter.hit(`k:${uuidv7()}`, 10_000)).count).toBe(1);
  const m = matchOf();
  await a.l2.set(m.key.key_hash, m, 10_000);
  expect(await b.l2.get(m.key.key_hash)).toEqual(m);
  const got: WorkspaceEvent[] = [];
  const off = b.events.subscribe(ws, (e) => got.push(e));
  await b.events.settled();
  const e = event(ws);
  await a.events.publish(e);
  await eventually(() => got.length === 1);
  expect(got).toEqual([e]);
  off();
  await a.inv.publish(ws);
  await eventually(() => b.heard.includes(ws));
}

describe("redis faults: adapters against a server that goes away", () => {
  let server: RedisServer;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    server = await startRedis();
    a = await instance(server.url);
    b = await instance(server.url);
  });
  afterAll(async () => {
    await shut(a);
    await shut(b);
    await server?.stop();
    console.info(`redis faults: measured ms ${JSON.stringify(measured)}`);
  });

  test("with Redis stopped, every adapter answers within 1 s: counter throws RedisUnavailableError, the rest fail soft", async () => {
    await worksAgain(a, b);
    const ws = uuidv7();
    const localOnA: WorkspaceEvent[] = [];
    const remoteOnB: WorkspaceEvent[] = [];
    const offs = [a.events.subscribe(ws, (e) => localOnA.push(e)), b.events.subscribe(ws, (e) => remoteOnB.push(e))];
    await Promise.all([a.events.settled(), b.events.settled()]);
    const m = matchOf();
    await a.l2.set(m.key.key_hash, m, 10_000);

    await server.stop();
    // Straight after the stop: still fast, whether or not the client has noticed yet.
    const err = await timed("stopped: rate hit (first)", () => a.counter.hit("k", 1_000).then(() => null, (e: unknown) => e));
    expect(err).toBeInstanceOf(RedisUnavailableError);
    expect((err as RedisUnavailableError).code).toBe("REDIS_UNAVAILABLE");
    await eventually(() => !a.conn.isReady && !b.conn.isReady);

    await expect(timed("stopped: rate hit", () => a.counter.hit("k", 1_000))).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(await timed("stopped: L2 get", () => a.l2.get(m.key.key_hash))).toBeUndefined();
    await timed("stopped: L2 set", () => a.l2.set(m.key.key_hash, m, 10_000));
    await timed("stopped: L2 invalidate", () => a.l2.invalidateWorkspace(m.workspace.id));
    const e = event(ws);
    await timed("stopped: event publish", () => a.events.publish(e));
    expect(localOnA).toEqual([e]); // subscribers on the publishing instance still get it
    await timed("stopped: invalidation publish", () => a.inv.publish(ws));
    expect(a.log.lines.some((l) => l.startsWith("warn: Redis connection lost"))).toBe(true);
    for (const off of offs) off();
    expect(remoteOnB).toEqual([]);
  });

  test('when Redis is back, the same objects work again and the invalidation bus said "*"', async () => {
    const [starsA, starsB] = [stars(a), stars(b)];
    const t0 = performance.now();
    await server.restart();
    await eventually(() => a.conn.isReady && b.conn.isReady && stars(a) > starsA && stars(b) > starsB, 15_000);
    measured["back: reconnected and resubscribed after restart"] = Math.round(performance.now() - t0);
    await worksAgain(a, b);
    expect(a.log.lines.some((l) => l === "info: Redis is reachable again")).toBe(true);
  });

  test("with Redis frozen (open sockets, no answers), calls give up after the command timeout, then at once", async () => {
    const m = matchOf();
    await a.l2.set(m.key.key_hash, m, 10_000);
    server.pause();
    try {
      // three timeouts in a row open the breaker...
      await expect(timed("frozen: rate hit", () => a.counter.hit(`k:${uuidv7()}`, 1_000))).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(await timed("frozen: L2 get", () => a.l2.get(m.key.key_hash))).toBeUndefined();
      await timed("frozen: event publish", () => a.events.publish(event(uuidv7())));
      expect(a.log.lines.some((l) => l.startsWith("warn: Redis is not answering in time"))).toBe(true);
      // ...then calls do not wait at all
      const t0 = performance.now();
      await expect(timed("frozen, breaker open: rate hit", () => a.counter.hit(`k:${uuidv7()}`, 1_000))).rejects.toBeInstanceOf(
        RedisUnavailableError,
      );
      expect(await timed("frozen, breaker open: L2 get", () => a.l2.get(m.key.key_hash))).toBeUndefined();
      await timed("frozen, breaker open: L2 set", () => a.l2.set(m.key.key_hash, m, 10_000));
      await timed("frozen, breaker open: L2 invalidate", () => a.l2.invalidateWorkspace(uuidv7()));
      await timed("frozen, breaker open: invalidation publish", () => a.inv.publish(uuidv7()));
      expect(performance.now() - t0).toBeLessThan(50);
      // the other instance has not tripped yet: its calls still cost one timeout each
      await timed("frozen: invalidation publish", () => b.inv.publish(uuidv7()));
    } finally {
      server.resume();
    }
    // the breaker lets a probe through after its open time; the first answer closes it
    const until = Date.now() + 5_000;
    for (;;) {
      try {
        await a.counter.hit(`k:${uuidv7()}`, 1_000);
        break;
      } catch (e) {
        if (Date.now() > until) throw e;
        await Bun.sleep(50);
      }
    }
    await worksAgain(a, b);
    expect(a.log.lines).toContain("info: Redis answers in time again");
  });

  test("an instance that boots while Redis is down starts at once and picks Redis up when it appears", async () => {
    await server.stop();
    const t0 = performance.now();
    const late = await instance(server.url);
    measured["boot with Redis down: connect()"] = Math.round(performance.now() - t0);
    try {
      expect(performance.now() - t0).toBeLessThan(FAST_MS);
      expect(late.conn.isReady).toBe(false);
      expect(late.log.lines.some((l) => l.startsWith("warn: Redis is unreachable at start-up"))).toBe(true);
      await expect(late.counter.hit("k", 1_000)).rejects.toBeInstanceOf(RedisUnavailableError);
      const ws = uuidv7();
      const got: WorkspaceEvent[] = [];
      late.events.subscribe(ws, (e) => got.push(e)); // asked for while Redis is down

      await server.restart();
      await eventually(() => late.conn.isReady && a.conn.isReady && b.conn.isReady && stars(late) > 0, 15_000);
      await late.events.settled();
      // Pub/sub is at-most-once: an event published before the re-subscription is live on the
      // server is not delivered. Publish until one arrives (bounded), then check it is intact.
      const sent: WorkspaceEvent[] = [];
      for (let i = 0; i < 30 && got.length === 0; i++) {
        const e = event(ws);
        sent.push(e);
        await a.events.publish(e);
        await eventually(() => got.length > 0, 200).catch(() => {});
      }
      expect(got.length).toBeGreaterThan(0);
      expect(sent).toContainEqual(got[0]!);
      await worksAgain(late, a);
    } finally {
      await shut(late);
    }
  });

  test("RedisConnection.connect() with requireAtBoot fails loudly when Redis is down", async () => {
    await server.stop();
    try {
      const t0 = performance.now();
      await expect(RedisConnection.connect(server.url, { logger: logger(), bootWaitMs: 200, requireAtBoot: true })).rejects.toBeInstanceOf(
        RedisUnavailableError,
      );
      expect(performance.now() - t0).toBeLessThan(FAST_MS);
    } finally {
      await server.restart();
      await eventually(() => a.conn.isReady && b.conn.isReady, 15_000);
    }
  });
});

interface Proxy {
  url: string;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

type Track = (s: Socket) => void;

/** A loopback TCP server whose sockets are tracked and closed with it; `accept` decides what each client gets. */
async function proxyServer(
  accept: (client: Socket, track: Track) => void,
): Promise<{ url: string; sockets: Set<Socket>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const track: Track = (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => {});
  };
  const server: Server = createServer((client) => {
    track(client);
    accept(client, track);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    sockets,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Joins a client to a new connection to Redis (sending `first` ahead when the client's first bytes were read), each closing the other. */
function splice(client: Socket, targetPort: number, track: Track, first?: Buffer): void {
  const upstream = tcpConnect({ host: "127.0.0.1", port: targetPort });
  track(upstream);
  if (first) upstream.write(first);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
}

/** A TCP proxy that can cut every connection and refuse new ones: a partition, Redis keeps its data. */
async function partitionableProxy(targetPort: number): Promise<Proxy> {
  let open = true;
  const base = await proxyServer((client, track) => (open ? splice(client, targetPort, track) : client.destroy()));
  return {
    url: base.url,
    cut() {
      open = false;
      for (const s of base.sockets) s.destroy();
    },
    heal() {
      open = true;
    },
    close: base.close,
  };
}

/**
 * A TCP proxy that can cut off the subscriber of one RedisConnection (recognised by the
 * `CLIENT SETNAME <name>:sub` its handshake starts with) and refuse its reconnects, while the
 * command client goes on: what the two clients' separate backoff schedules produce after an outage.
 */
async function subscriberCuttingProxy(targetPort: number, subscriberName: string): Promise<Proxy> {
  let blocked = false;
  const subscribers = new Set<Socket>();
  const base = await proxyServer((client, track) =>
    client.once("data", (first: Buffer) => {
      const isSubscriber = first.includes(subscriberName);
      if (isSubscriber && blocked) return void client.destroy();
      if (isSubscriber) subscribers.add(client);
      client.on("close", () => subscribers.delete(client));
      splice(client, targetPort, track, first);
    })
  );
  return {
    url: base.url,
    cut() {
      blocked = true;
      for (const s of subscribers) s.destroy();
    },
    heal() {
      blocked = false;
    },
    close: base.close,
  };
}

describe("redis faults: a partition that Redis itself survives", () => {
  test("RedisEventBus.settled() waits for a subscriber still reconnecting while Redis already answers commands", async () => {
    const server = await startRedis();
    const proxy = await subscriberCuttingProxy(server.port, "cut-off:sub");
    const publisher = await RedisConnection.connect(server.url, { logger: logger() });
    const conn = await RedisConnection.connect(proxy.url, { logger: logger(), name: "cut-off" });
    const bus = createRedisEventBus(conn);
    const events = createRedisEventBus(publisher);
    try {
      proxy.cut();
      await eventually(() => !conn.subscriber.isReady);
      expect(conn.isReady).toBe(true); // Redis answers this instance's commands meanwhile
      const ws = uuidv7();
      const got: WorkspaceEvent[] = [];
      bus.subscribe(ws, (e) => got.push(e)); // asked for while the subscriber is away
      const settled = bus.settled();
      proxy.heal();
      await settled;
      // Settled means in effect on the server: the first event published after it arrives.
      const e = event(ws);
      await events.publish(e);
      await eventually(() => got.length === 1);
      expect(got).toEqual([e]);
    } finally {
      await bus.close();
      await events.close();
      await conn.close();
      await publisher.close();
      await proxy.close();
      await server.stop();
    }
  });

  test("AuthCacheL2.invalidateWorkspace() that failed while cut off is retried once Redis is reachable again", async () => {
    const server = await startRedis();
    const proxy = await partitionableProxy(server.port);
    const raw = createClient({ url: server.url });
    await raw.connect();
    const conn = await RedisConnection.connect(proxy.url, { logger: logger() });
    try {
      const l2 = createRedisAuthCacheL2(conn);
      const m = matchOf();
      await l2.set(m.key.key_hash, m, 30_000);
      expect(await raw.exists(authEntryKey(m.key.key_hash))).toBe(1);

      proxy.cut();
      await timed("partitioned: L2 invalidate", () => l2.invalidateWorkspace(m.workspace.id));
      expect(await raw.exists(authEntryKey(m.key.key_hash))).toBe(1); // Redis never heard of it

      proxy.heal();
      await eventually(() => conn.isReady, 15_000);
      const until = Date.now() + 5_000;
      while ((await raw.exists(authEntryKey(m.key.key_hash))) === 1 && Date.now() < until) await Bun.sleep(10);
      expect(await raw.exists(authEntryKey(m.key.key_hash))).toBe(0);
      expect(await l2.get(m.key.key_hash)).toBeUndefined();
    } finally {
      await conn.close();
      raw.destroy();
      await proxy.close();
      await server.stop();
    }
  });
});
