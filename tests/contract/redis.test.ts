import * as bunTest from "bun:test";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "redis";
import type { KeyMatch } from "../../core/access/ports.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import {
  authEntryKey,
  authGuardKey,
  authIndexKey,
  createRedisAuthCacheL2,
  createRedisEventBus,
  createRedisInvalidationBus,
  createRedisRateCounter,
  eventChannel,
  openRedisAdapters,
  rateKey,
  RedisConnection,
  type RedisLogger,
} from "../../adapters/redis/mod.ts";
import { type WorkspaceEvent, workspaceEvent } from "../../core/events/event.ts";
import { sharedRedis } from "../support/redis-server.ts";
import { eventually, runEventBusContract } from "./event-bus.contract.ts";
import { runInvalidationBusContract } from "./invalidation-bus.contract.ts";
import { runRateCounterContract } from "./rate-counter.contract.ts";
import { bundle } from "./fixtures.ts";

const quiet: RedisLogger = { log() {} };
const open = async (name = `wks-test-${uuidv7().slice(-8)}`) =>
  RedisConnection.connect(await sharedRedis(), { logger: quiet, name, requireAtBoot: true });

/** Kills the connections whose CLIENT SETNAME is `name`, from another connection. */
async function killClient(name: string): Promise<void> {
  const admin = createClient({ url: await sharedRedis() });
  await admin.connect();
  try {
    const list = await admin.sendCommand<string>(["CLIENT", "LIST"]);
    const ids = String(list)
      .split("\n")
      .filter((line) => line.split(" ").includes(`name=${name}`))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1])
      .filter((id): id is string => !!id);
    if (ids.length === 0) throw new Error(`No Redis client named ${name}`);
    for (const id of ids) await admin.sendCommand(["CLIENT", "KILL", "ID", id]);
  } finally {
    admin.destroy();
  }
}

runEventBusContract("redis", async () => {
  const [ca, cb] = [await open(), await open()];
  const [a, b] = [createRedisEventBus(ca), createRedisEventBus(cb)];
  return {
    a,
    b,
    settled: async () => {
      await Promise.all([a.settled(), b.settled()]);
    },
    async close() {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([ca.close(), cb.close()]);
    },
  };
}, bunTest);

runRateCounterContract("redis", async () => {
  const conn = await open();
  const counter = createRedisRateCounter(conn);
  return { hit: (k, ms) => counter.hit(k, ms), close: () => conn.close() };
}, bunTest);

runInvalidationBusContract("redis", async () => {
  const nameB = `wks-test-b-${uuidv7().slice(-8)}`;
  const [ca, cb] = [await open(), await open(nameB)];
  const [a, b] = [await createRedisInvalidationBus(ca), await createRedisInvalidationBus(cb)];
  return {
    a,
    b,
    disrupt: () => killClient(`${nameB}:sub`),
    async close() {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([ca.close(), cb.close()]);
    },
  };
});

describe("redis: adapters", () => {
  let conn: RedisConnection;
  let raw: ReturnType<typeof createClient>;
  beforeAll(async () => {
    conn = await open();
    raw = createClient({ url: await sharedRedis() });
    await raw.connect();
  });
  afterAll(async () => {
    await conn?.close();
    raw?.destroy();
  });

  const matchOf = (): KeyMatch => {
    const b = bundle();
    return { key: b.apiKey, workspace: b.workspace, member: b.member };
  };

  test("createRedisRateCounter() keeps a window in wks:rl:{<key>} with its TTL", async () => {
    const key = `ip:${uuidv7()}`;
    await createRedisRateCounter(conn).hit(key, 30_000);
    expect(await raw.get(rateKey(key))).toBe("1");
    const ttl = await raw.pTTL(rateKey(key));
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  test("createRedisRateCounter() gives a window left without TTL one again", async () => {
    const key = `ip:${uuidv7()}`;
    await raw.set(rateKey(key), "7");
    const w = await createRedisRateCounter(conn).hit(key, 5_000);
    expect(w.count).toBe(8);
    expect(w.resetMs).toBe(5_000);
    expect(await raw.pTTL(rateKey(key))).toBeGreaterThan(0);
  });

  test("createRedisEventBus() ignores malformed messages and events naming another workspace", async () => {
    const other = await open();
    const bus = createRedisEventBus(conn);
    const ws = uuidv7();
    const got: WorkspaceEvent[] = [];
    const off = bus.subscribe(ws, (e) => got.push(e));
    await bus.settled();
    const ch = eventChannel(ws);
    const foreign = workspaceEvent(uuidv7(), "member.added", null, new Date());
    for (const junk of ["not json", "null", "[]", '{"o":"x"}', '{"o":"x","e":{"id":1}}', JSON.stringify({ o: "x", e: foreign })]) {
      await raw.publish(ch, junk);
    }
    const good = workspaceEvent(ws, "member.added", null, new Date(), { ok: true });
    await createRedisEventBus(other).publish(good);
    await eventually(() => got.length >= 1);
    await Bun.sleep(20);
    expect(got).toEqual([good]);
    off();
    await other.close();
  });

  test("createRedisEventBus() unsubscribes from Redis when the last listener leaves", async () => {
    const bus = createRedisEventBus(conn);
    const ws = uuidv7();
    const offs = [bus.subscribe(ws, () => {}), bus.subscribe(ws, () => {})];
    await bus.settled();
    const subscribers = async () => Number(((await raw.pubSubNumSub(eventChannel(ws))) as Record<string, number>)[eventChannel(ws)]);
    expect(await subscribers()).toBe(1);
    offs[0]!();
    await bus.settled();
    expect(await subscribers()).toBe(1);
    offs[1]!();
    await bus.settled();
    expect(await subscribers()).toBe(0);
  });

  test("AuthCacheL2.set() then get() round-trips the match; the index set outlives the entry", async () => {
    const l2 = createRedisAuthCacheL2(conn);
    const m = matchOf();
    expect(await l2.get(m.key.key_hash)).toBeUndefined();
    await l2.set(m.key.key_hash, m, 20_000);
    expect(await l2.get(m.key.key_hash)).toEqual(m);
    const entryTtl = await raw.pTTL(authEntryKey(m.key.key_hash));
    expect(entryTtl).toBeGreaterThan(15_000);
    expect(await raw.sMembers(authIndexKey(m.workspace.id))).toEqual([m.key.key_hash]);
    expect(await raw.pTTL(authIndexKey(m.workspace.id))).toBeGreaterThanOrEqual(entryTtl - 50);
  });

  test("AuthCacheL2 entries expire after their TTL; ttl 0 caches nothing", async () => {
    const l2 = createRedisAuthCacheL2(conn);
    const m = matchOf();
    await l2.set(m.key.key_hash, m, 100);
    expect(await l2.get(m.key.key_hash)).toEqual(m);
    await Bun.sleep(150);
    expect(await l2.get(m.key.key_hash)).toBeUndefined();
    const n = matchOf();
    await l2.set(n.key.key_hash, n, 0);
    expect(await l2.get(n.key.key_hash)).toBeUndefined();
  });

  test("AuthCacheL2.invalidateWorkspace() drops that workspace's entries only, on every instance", async () => {
    const other = await open();
    const l2a = createRedisAuthCacheL2(conn);
    const l2b = createRedisAuthCacheL2(other);
    const m1 = matchOf();
    const m2: KeyMatch = { ...m1, key: { ...matchOf().key, workspace_id: m1.workspace.id } };
    const elsewhere = matchOf();
    for (const m of [m1, m2, elsewhere]) await l2a.set(m.key.key_hash, m, 20_000);
    expect(await l2b.get(m2.key.key_hash)).toEqual(m2);
    await l2b.invalidateWorkspace(m1.workspace.id);
    expect(await l2a.get(m1.key.key_hash)).toBeUndefined();
    expect(await l2a.get(m2.key.key_hash)).toBeUndefined();
    expect(await raw.exists([authEntryKey(m1.key.key_hash), authEntryKey(m2.key.key_hash), authIndexKey(m1.workspace.id)])).toBe(0);
    expect(await l2a.get(elsewhere.key.key_hash)).toEqual(elsewhere);
    await other.close();
  });

  test("AuthCacheL2.set() right after an invalidation of its workspace caches nothing (a lookup that raced the write)", async () => {
    const l2 = createRedisAuthCacheL2(conn, { staleWriteGuardMs: 300 });
    const m = matchOf();
    await l2.invalidateWorkspace(m.workspace.id);
    expect(await raw.exists(authGuardKey(m.workspace.id))).toBe(1);
    await l2.set(m.key.key_hash, m, 20_000);
    expect(await l2.get(m.key.key_hash)).toBeUndefined();
    await Bun.sleep(350);
    await l2.set(m.key.key_hash, m, 20_000);
    expect(await l2.get(m.key.key_hash)).toEqual(m);
  });

  test("AuthCacheL2.get() treats a corrupt or mismatched entry as a miss", async () => {
    const l2 = createRedisAuthCacheL2(conn);
    const m = matchOf();
    await raw.set(authEntryKey(m.key.key_hash), "{not json", { expiration: { type: "PX", value: 10_000 } });
    expect(await l2.get(m.key.key_hash)).toBeUndefined();
    const n = matchOf();
    await raw.set(authEntryKey(m.key.key_hash), JSON.stringify(n), { expiration: { type: "PX", value: 10_000 } });
    expect(await l2.get(m.key.key_hash)).toBeUndefined();
  });

  test("openRedisAdapters() builds every adapter on one connection and closes it", async () => {
    const r = await openRedisAdapters(await sharedRedis(), { logger: quiet });
    expect(r.connection.isReady).toBe(true);
    expect((await r.rateCounter.hit(`k:${uuidv7()}`, 1_000)).count).toBe(1);
    await r.close();
    expect(r.connection.isReady).toBe(false);
    await expect(r.rateCounter.hit(`k:${uuidv7()}`, 1_000)).rejects.toMatchObject({ code: "REDIS_UNAVAILABLE" });
  });
});
