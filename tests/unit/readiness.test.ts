import { describe, expect, test } from "bun:test";
import { readinessProbe, servesTraffic } from "../../server/readiness.ts";

const up = async () => true;
const down = async () => {
  throw new Error("connect ECONNREFUSED 10.0.0.5:5432");
};

describe("readinessProbe()", () => {
  test("readinessProbe() is ready when every dependency answers, unavailable when a required one does not", async () => {
    expect(await readinessProbe([{ name: "database", required: true, check: up }])()).toMatchObject({
      status: "ready",
      checks: { database: { status: "up", required: true } },
    });
    const r = await readinessProbe([{ name: "database", required: true, check: down }, { name: "queue", required: false, check: up }])();
    expect(r).toMatchObject({ status: "unavailable", checks: { database: { status: "down" }, queue: { status: "up" } } });
    expect(servesTraffic(r)).toBe(false);
  });

  test("readinessProbe() is degraded, still serving, when only a dependency that is not required is down", async () => {
    const r = await readinessProbe([
      { name: "database", required: true, check: up },
      { name: "redis", required: false, check: down },
    ])();
    expect(r.status).toBe("degraded");
    expect(servesTraffic(r)).toBe(true);
  });

  test("readinessProbe() counts `false` and a check past its timeout as down", async () => {
    const started = performance.now();
    const r = await readinessProbe([
      { name: "database", required: true, check: async () => false },
      { name: "queue", required: false, check: () => new Promise(() => {}) },
    ], { timeoutMs: 50 })();
    expect(r.checks).toMatchObject({ database: { status: "down" }, queue: { status: "down" } });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("readinessProbe() is stopping, not serving, once the process shuts down", async () => {
    let stopping = false;
    const probe = readinessProbe([{ name: "database", required: true, check: up }], { stopping: () => stopping, reuseMs: 0 });
    expect((await probe()).status).toBe("ready");
    stopping = true;
    const r = await probe();
    expect(r.status).toBe("stopping");
    expect(servesTraffic(r)).toBe(false);
  });

  test("readinessProbe() reuses an answer within reuseMs: many polls cost one round of checks", async () => {
    let calls = 0;
    const probe = readinessProbe([{ name: "database", required: true, check: async () => ++calls > 0 }], { reuseMs: 60_000 });
    await Promise.all(Array.from({ length: 20 }, () => probe()));
    await probe();
    expect(calls).toBe(1);
  });

  test("readinessProbe() reports a dependency going down and coming back once each, with the error, and nothing while it stays", async () => {
    let healthy = true;
    const changes: string[] = [];
    const probe = readinessProbe([{ name: "database", required: true, check: () => (healthy ? up() : down()) }], {
      reuseMs: 0,
      onChange: (name, status, error) => void changes.push(`${name} ${status}${error ? `: ${error}` : ""}`),
    });
    await probe();
    healthy = false;
    await probe();
    await probe();
    healthy = true;
    await probe();
    await probe();
    expect(changes).toEqual(["database down: connect ECONNREFUSED 10.0.0.5:5432", "database up"]);
  });

  test("readinessProbe() answers name no host and no error (it is public)", async () => {
    const r = await readinessProbe([{ name: "database", required: true, check: down }])();
    expect(JSON.stringify(r)).not.toContain("10.0.0.5");
    expect(JSON.stringify(r)).not.toContain("ECONNREFUSED");
  });
});
