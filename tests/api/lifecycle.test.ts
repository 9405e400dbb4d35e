import { afterAll, describe, expect, test } from "bun:test";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { openEventStream } from "../support/event-stream.ts";

/** The real server process: how it ends, and limits only a real socket can exercise. */
const servers: AppServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop().catch(() => {})));
});

async function start(env: Record<string, string> = {}) {
  const s = await startAppServer({ name: "lifecycle", env: { LOG_LEVEL: "info", ...env } });
  servers.push(s);
  return s;
}

describe("server process", () => {
  test("SIGTERM ends open event streams, lets the process exit 0 and says so", async () => {
    const s = await start();
    const boot = await fetch(`${s.origin}/api/v1/workspaces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ slug: "lifecycle", owner_email: "lifecycle@example.com" }),
    });
    const key = (await boot.json()).api_key.key;
    const stream = await openEventStream((init) => fetch(`${s.origin}/api/v1/workspaces/lifecycle/events/stream`, init), key);
    const started = performance.now();
    process.kill(s.child.pid, "SIGTERM");
    expect(await stream.ended(5000)).toBe(true);
    expect(await s.child.exited).toBe(0);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(s.child.tail(20)).toContain('"msg":"shutting down"');
  });

  test("a chunked body over the limit is refused with 413 though it declares no length", async () => {
    const s = await start({ BODY_LIMIT_BYTES: "2048" });
    const big = new TextEncoder().encode(JSON.stringify({ slug: "chunky", name: "x".repeat(8192) }));
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < big.length; i += 1024) c.enqueue(big.slice(i, i + 1024));
        c.close();
      },
    });
    const res = await fetch(`${s.origin}/api/v1/workspaces`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect((await fetch(`${s.origin}/api/v1/health`)).status).toBe(200);
  });

  test("a declared length far over the limit gets the API's own 413 envelope, not the runtime's bare one", async () => {
    const s = await start({ BODY_LIMIT_BYTES: "2048" });
    const res = await fetch(`${s.origin}/api/v1/workspaces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ slug: "large", name: "x".repeat(2_500_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  });
});
