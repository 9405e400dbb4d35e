/** A throwaway redis-server from the test launcher (tests/support/redis-server.ts). */
import type { BenchContext } from "../scenario.ts";
import { startRedis } from "../../tests/support/redis-server.ts";

export function redis(ctx: BenchContext): Promise<{ url: string }> {
  return ctx.use("redis", async () => {
    const server = await startRedis();
    return { value: { url: server.url }, stop: () => server.stop() };
  });
}
