import { test } from "bun:test";
import { openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { makeTestApp } from "../support/test-app.ts";
const postgres = await sharedPostgres();
test("prof", async () => {
  const t = await makeTestApp(await openPostgresStores(await freshDatabase(postgres)), { config: { importLimitBytes: 1e9 } });
  const { key } = await t.bootstrap("prof");
  const c = await t.call("POST", "/workspaces/prof/collections", { key, body: { name: "D", archetype: "pipeline", record_schema: { fields: {
    company: { type: "string", required: true }, amount: { type: "number" }, owner: { type: "string" }, close_date: { type: "date" },
    seats: { type: "integer" }, probability: { type: "number" }, tier: { type: "enum", values: ["a", "b"] }, won: { type: "boolean" } } } } });
  const n = 10000;
  const lines = ["status,company,amount,owner,close_date,seats,probability,tier,won"];
  for (let i = 0; i < n; i++) lines.push(`lead,Acme ${i},${i},kim,2026-01-02,${i % 50 + 1},0.5,a,true`);
  const csv = lines.join("\r\n") + "\r\n";
  for (const q of [""]) {
    const s = performance.now();
    const r = await t.call("POST", `/workspaces/prof/collections/${c.body.id}/records/import${q}`, { key, rawBody: csv, headers: { "content-type": "text/csv" } });
    console.log(q, r.status, Math.round(performance.now() - s), "ms");
  }
  const times: number[] = [];
  for (let k = 0; k < 6; k++) {
    const s = performance.now();
    const e = await t.call("GET", `/workspaces/prof/collections/${c.body.id}/records/export`, { key });
    times.push(Math.round(performance.now() - s));
    console.log("query ms", Math.round((globalThis as any).QT)); (globalThis as any).QT = 0;
  }
  console.log("export", times.join(" "), "min", Math.min(...times));
}, 300000);
