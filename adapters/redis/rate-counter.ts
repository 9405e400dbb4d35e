import type { RateCounter, WindowCount } from "../../core/access/ports.ts";
import { type RedisConnection, RedisUnavailableError } from "./connection.ts";
import { RedisScript } from "./script.ts";

/**
 * One hit in a fixed window, atomically: INCR, start the window's expiry when the key has none
 * (its first hit, or a key left without a TTL), and read the time left. The same as
 * `INCR` + `PEXPIRE key ms NX` + `PTTL` in MULTI, but also on Redis < 7 (no NX).
 */
const HIT = new RedisScript(`
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`);

/** `wks:rl:{<key>}`: the key is its own hash tag, so each counter lives on one slot. */
export const rateKey = (key: string) => `wks:rl:{${key}}`;

/**
 * Fixed windows shared by every instance. Any failure (Redis down, slow, or erroring) throws
 * `RedisUnavailableError` within the connection's command timeout; whether to then allow the
 * request is the caller's policy.
 */
/** Always asynchronous: a round trip to Redis. */
export interface RedisRateCounter extends RateCounter {
  hit(key: string, windowMs: number): Promise<WindowCount>;
}

export function createRedisRateCounter(conn: RedisConnection): RedisRateCounter {
  return {
    async hit(key, windowMs): Promise<WindowCount> {
      const ms = Math.max(1, Math.floor(windowMs));
      try {
        const reply = (await conn.run("rate counter hit", (c) => HIT.run(c, [rateKey(key)], [String(ms)]))) as [number, number];
        return { count: Number(reply[0]), resetMs: Math.max(0, Number(reply[1])) };
      } catch (e) {
        if (e instanceof RedisUnavailableError) throw e;
        throw new RedisUnavailableError(`Redis rate counter failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
      }
    },
    // The connection is shared: its owner closes it.
    async close() {},
  };
}
