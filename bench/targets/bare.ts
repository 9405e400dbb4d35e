/** The bare Bun.serve hello-world process (bench/bare-server.ts). */
import { join } from "node:path";
import type { BenchContext } from "../scenario.ts";
import { spawnChild } from "../../tests/support/child-process.ts";
import { freePort, waitForHttp } from "../../tests/support/net.ts";

export function bareServer(ctx: BenchContext): Promise<{ origin: string }> {
  return ctx.use("bare-server", async () => {
    const port = freePort();
    const child = spawnChild("bare-server", [process.execPath, join(import.meta.dir, "../bare-server.ts")], {
      env: { PORT: String(port) },
    });
    const origin = `http://127.0.0.1:${port}`;
    try {
      await child.waitForLine(/listening/, 15_000);
      await waitForHttp(`${origin}/`, 15_000);
    } catch (error) {
      await child.stop();
      throw new Error(`${(error as Error).message}\n${child.tail()}`);
    }
    return { value: { origin }, stop: async () => void (await child.stop()) };
  });
}
