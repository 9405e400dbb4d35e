/**
 * Redis adapters: a shared connection, the authentication cache's invalidation bus and level-2
 * cache, the cross-instance event bus and the rate counter. Redis holds nothing that cannot be
 * rebuilt; every adapter keeps the server working while it is away. See `openRedisAdapters`.
 */
import type { AuthCacheL2 } from "../cache/auth-cache-l2.ts";
import type { InvalidationBus } from "../cache/invalidation-bus.ts";
import { createRedisAuthCacheL2, type RedisAuthCacheL2Options } from "./auth-cache-l2.ts";
import { RedisConnection, type RedisConnectionOptions } from "./connection.ts";
import { createRedisEventBus, type RedisEventBus } from "./event-bus.ts";
import { createRedisInvalidationBus } from "./invalidation-bus.ts";
import { createRedisRateCounter, type RedisRateCounter } from "./rate-counter.ts";

export { authEntryKey, authGuardKey, authIndexKey, createRedisAuthCacheL2, type RedisAuthCacheL2Options } from "./auth-cache-l2.ts";
export {
  type MessageHandler,
  redactUrl,
  type RedisClient,
  RedisConnection,
  type RedisConnectionOptions,
  type RedisLogger,
  RedisUnavailableError,
  withTimeout,
} from "./connection.ts";
export { createRedisEventBus, eventChannel, type RedisEventBus } from "./event-bus.ts";
export { createRedisInvalidationBus, INVALIDATION_CHANNEL } from "./invalidation-bus.ts";
export { createRedisRateCounter, rateKey, type RedisRateCounter } from "./rate-counter.ts";
export { RedisScript } from "./script.ts";

export interface RedisAdapters {
  connection: RedisConnection;
  invalidationBus: InvalidationBus;
  events: RedisEventBus;
  rateCounter: RedisRateCounter;
  authCacheL2: AuthCacheL2;
  /** Closes the buses, then the connection. */
  close(): Promise<void>;
}

/**
 * Everything from one `REDIS_URL`. Does not fail when Redis is unreachable at start-up (unless
 * `requireAtBoot`): it logs a warning and the adapters fail soft until Redis answers.
 */
export async function openRedisAdapters(
  url: string,
  opts: RedisConnectionOptions & { authCacheL2?: RedisAuthCacheL2Options } = {},
): Promise<RedisAdapters> {
  const connection = await RedisConnection.connect(url, opts);
  const invalidationBus = await createRedisInvalidationBus(connection);
  const events = createRedisEventBus(connection);
  const rateCounter = createRedisRateCounter(connection);
  const authCacheL2 = createRedisAuthCacheL2(connection, opts.authCacheL2);
  return {
    connection,
    invalidationBus,
    events,
    rateCounter,
    authCacheL2,
    async close() {
      await events.close().catch(() => {});
      await invalidationBus.close().catch(() => {});
      await connection.close();
    },
  };
}
