/**
 * Records in and out as files (issue #25, docs/decisions/063-records-csv-and-ndjson.md), measured
 * once each rather than loaded by wrk: on PostgreSQL, N rows of 8 fields (BENCH_TRANSFER_ROWS,
 * default 100,000) imported as one CSV (`POST …/records/import`), exported as CSV and as NDJSON
 * (`GET …/records/export`, read to the end), and, side by side in the same run, the same rows
 * created one `POST …/records` at a time (32 in flight, as the records benchmark seeds) and through
 * PocketBase's create loop (the same fields, the same 32 in flight). PocketBase has no import.
 *
 * While the import and each export run, the API server's resident memory (VmRSS of its process,
 * read every 50 ms from /proc) is sampled: the growth is the highest sample less the one before,
 * after a warm-up import and export of 2,000 rows (what a first call loads once is not growth).
 * `BENCH_ONLY=record-transfer npm run bench` prints the table with the targets MET or MISSED.
 */
import { readFileSync } from "node:fs";
import type { BenchContext } from "./scenario.ts";
import { bootstrapWorkspace, startAppServer } from "../tests/support/app-server.ts";
import { dealAt, STAGES } from "./datasets/deals.ts";
import { seedOverHttp } from "./datasets/seed-http.ts";
import { startPocketbase } from "./targets/pocketbase.ts";
import { freshPostgres, positiveInt } from "./targets/topics.ts";
import { SERVER_FLAGS } from "./targets/app.ts";

/** A measurement that is one timed operation, not a load: run after the wrk scenarios, its own table printed. */
export interface OneShot {
  name: string;
  run(ctx: BenchContext): Promise<string>;
}

const GOALS = { importRowsPerSecond: 10_000, exportRowsPerSecond: 50_000, growthMb: 64 };
const TIERS = ["smb", "mid", "ent"] as const;

/** Row `i`: the records benchmark's deal (company, amount, owner, close_date, stage) and four fields more, all derived from it. */
function rowAt(i: number) {
  const d = dealAt(i);
  return {
    status: d.status,
    fields: {
      company: d.company,
      amount: d.amount,
      owner: d.owner,
      close_date: d.close_date,
      seats: (d.amount % 500) + 1,
      probability: Math.round((d.amount % 100) * 0.97 * 100) / 10000,
      tier: TIERS[d.amount % 3]!,
      won: d.status === "won",
    },
  };
}
const FIELDS = ["company", "amount", "owner", "close_date", "seats", "probability", "tier", "won"] as const;

const COLLECTION = {
  archetype: "pipeline",
  record_schema: {
    fields: {
      company: { type: "string", required: true, max_length: 200 },
      amount: { type: "number", min: 0 },
      owner: { type: "string" },
      close_date: { type: "date" },
      seats: { type: "integer", min: 1 },
      probability: { type: "number", min: 0, max: 1 },
      tier: { type: "enum", values: [...TIERS] },
      won: { type: "boolean" },
    },
    stages: [...STAGES],
  },
};

function csvOf(n: number): string {
  const lines = [`status,${FIELDS.join(",")}`];
  for (let i = 0; i < n; i++) {
    const r = rowAt(i);
    lines.push([r.status, ...FIELDS.map((f) => String(r.fields[f]))].join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** The server's resident memory, sampled from /proc while `work` runs: its growth over the sample before, in MB. */
async function withRss<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; growthMb: number; seconds: number }> {
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  };
  const before = rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 50);
  const started = performance.now();
  try {
    const value = await work();
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, rss());
    return { value, growthMb: peak - before, seconds };
  } finally {
    clearInterval(timer);
  }
}

async function ok(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (response.status < 200 || response.status > 299) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 800)}`);
  return text;
}

/** Reads a streamed answer to its end, counting its lines (not keeping them). */
async function drainLines(response: Response): Promise<{ lines: number; bytes: number }> {
  if (response.status !== 200 || !response.body) {
    throw new Error(`export answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  return { lines, bytes };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const verdict = (ok: boolean) => (ok ? "MET" : "MISSED");

export const recordTransfer: OneShot = {
  name: "record-transfer (postgres): records import and export, CSV and NDJSON",
  async run(ctx) {
    const n = positiveInt("BENCH_TRANSFER_ROWS", 100_000);
    const url = await freshPostgres(ctx);
    const server = await ctx.use("app:record-transfer", async () => {
      const s = await startAppServer({
        name: "server (postgres, record transfer)",
        databaseUrl: url,
        flags: SERVER_FLAGS,
        env: {
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
          SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"),
          RATE_LIMIT_PER_KEY: "1000000000",
          IMPORT_MAX_ROWS: String(Math.max(n, 100_000)),
        },
      });
      return { value: s, stop: s.stop };
    });
    const pid = server.child.pid;
    const { slug, apiKey } = await bootstrapWorkspace(server.origin, "bench-transfer");
    const base = `${server.origin}/api/v1/workspaces/${slug}/collections`;
    const json = { "x-api-key": apiKey, "content-type": "application/json" };
    const collection = async (name: string) =>
      (JSON.parse(
        await ok(await fetch(base, { method: "POST", headers: json, body: JSON.stringify({ ...COLLECTION, name }) }), "POST collections"),
      ) as {
        id: string;
      }).id;

    // A warm-up (a small import and its export): what the first import and export load once (code,
    // the parser, prepared statements) is not growth of the measured ones.
    const scratch = await collection("Warm-up");
    await ok(
      await fetch(`${base}/${scratch}/records/import`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "text/csv" },
        body: csvOf(2_000),
      }),
      "warm-up import",
    );
    await drainLines(await fetch(`${base}/${scratch}/records/export`, { headers: { "x-api-key": apiKey } }));

    const csv = csvOf(n);
    console.log(`  ${fmt(n)} rows of ${FIELDS.length} fields: ${(csv.length / 1024 / 1024).toFixed(1)} MB of CSV`);
    const imported = await collection("Imported");
    const imp = await withRss(pid, async () => {
      const res = await fetch(`${base}/${imported}/records/import?format=csv`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "text/csv" },
        body: csv,
        signal: AbortSignal.timeout(600_000),
      });
      return JSON.parse(await ok(res, "POST records/import")) as { created: number };
    });
    if (imp.value.created !== n) throw new Error(`The import created ${imp.value.created} records, not ${n}`);
    console.log(`  import: ${fmt(n)} rows in ${imp.seconds.toFixed(2)} s, server RSS +${imp.growthMb.toFixed(1)} MB`);

    const exports: Record<string, { seconds: number; growthMb: number }> = {};
    for (const format of ["csv", "ndjson"] as const) {
      const out = await withRss(pid, async () =>
        drainLines(
          await fetch(`${base}/${imported}/records/export?format=${format}`, {
            headers: { "x-api-key": apiKey },
            signal: AbortSignal.timeout(600_000),
          }),
        ));
      const rows = out.value.lines - (format === "csv" ? 1 : 0);
      if (rows !== n) throw new Error(`The ${format} export held ${rows} rows, not ${n}`);
      exports[format] = out;
      console.log(
        `  export ${format}: ${fmt(n)} rows (${(out.value.bytes / 1024 / 1024).toFixed(1)} MB) in ${
          out.seconds.toFixed(2)
        } s, server RSS +${out.growthMb.toFixed(1)} MB`,
      );
    }

    const singles = await collection("Single creates");
    const ours = await seedOverHttp({
      label: "ours, single creates (postgres, record transfer)",
      count: n,
      request: (i) => ({ url: `${base}/${singles}/records`, init: { method: "POST", headers: json, body: JSON.stringify(rowAt(i)) } }),
    });

    const pb = await ctx.use("pocketbase:record-transfer", startPocketbase);
    const pbHeaders = { authorization: pb.token, "content-type": "application/json" };
    await ok(
      await fetch(`${pb.origin}/api/collections`, {
        method: "POST",
        headers: pbHeaders,
        body: JSON.stringify({
          name: "transfer",
          type: "base",
          fields: [
            { name: "company", type: "text", required: true, max: 200 },
            { name: "amount", type: "number", min: 0 },
            { name: "owner", type: "text" },
            { name: "close_date", type: "date" },
            { name: "seats", type: "number", min: 1, onlyInt: true },
            { name: "probability", type: "number", min: 0, max: 1 },
            { name: "tier", type: "select", values: [...TIERS], maxSelect: 1 },
            { name: "won", type: "bool" },
            { name: "status", type: "select", values: [...STAGES], maxSelect: 1 },
          ],
        }),
      }),
      "PocketBase: POST /api/collections",
    );
    const theirs = await seedOverHttp({
      label: `PocketBase ${pb.version} (record transfer)`,
      count: n,
      request: (i) => {
        const r = rowAt(i);
        return {
          url: `${pb.origin}/api/collections/transfer/records`,
          init: { method: "POST", headers: pbHeaders, body: JSON.stringify({ ...r.fields, status: r.status }) },
        };
      },
    });

    const importRate = n / imp.seconds;
    const csvRate = n / exports.csv!.seconds;
    const ndjsonRate = n / exports.ndjson!.seconds;
    const lines = [
      `| ${fmt(n)} rows of ${FIELDS.length} fields (PostgreSQL) | seconds | rows/s | server RSS growth | target | |`,
      "|---|---:|---:|---:|---|---|",
      `| import, one CSV (POST …/records/import) | ${imp.seconds.toFixed(2)} | ${fmt(importRate)} | ${imp.growthMb.toFixed(1)} MB | ≥ ${
        fmt(GOALS.importRowsPerSecond)
      } rows/s, < ${GOALS.growthMb} MB | ${verdict(importRate >= GOALS.importRowsPerSecond && imp.growthMb < GOALS.growthMb)} |`,
      `| export CSV, streamed (GET …/records/export) | ${exports.csv!.seconds.toFixed(2)} | ${fmt(csvRate)} | ${
        exports.csv!.growthMb.toFixed(1)
      } MB | ≥ ${fmt(GOALS.exportRowsPerSecond)} rows/s, < ${GOALS.growthMb} MB | ${
        verdict(csvRate >= GOALS.exportRowsPerSecond && exports.csv!.growthMb < GOALS.growthMb)
      } |`,
      `| export NDJSON, streamed | ${exports.ndjson!.seconds.toFixed(2)} | ${fmt(ndjsonRate)} | ${
        exports.ndjson!.growthMb.toFixed(1)
      } MB | ≥ ${fmt(GOALS.exportRowsPerSecond)} rows/s, < ${GOALS.growthMb} MB | ${
        verdict(ndjsonRate >= GOALS.exportRowsPerSecond && exports.ndjson!.growthMb < GOALS.growthMb)
      } |`,
      `| ours: the same rows, single creates (32 in flight) | ${ours.seconds.toFixed(2)} | ${fmt(ours.perSecond)} | – | – | |`,
      `| PocketBase ${pb.version}: the same rows, its create loop (32 in flight) | ${theirs.seconds.toFixed(2)} | ${
        fmt(theirs.perSecond)
      } | – | – | |`,
      "",
      `- MET/MISSED: import ≥ ${fmt(GOALS.importRowsPerSecond)} rows/s: ${fmt(importRate)} (${
        verdict(importRate >= GOALS.importRowsPerSecond)
      }); ` +
      `export ≥ ${fmt(GOALS.exportRowsPerSecond)} rows/s: CSV ${fmt(csvRate)} (${verdict(csvRate >= GOALS.exportRowsPerSecond)}); ` +
      `server memory growth < ${GOALS.growthMb} MB: import ${imp.growthMb.toFixed(1)} MB, export ${exports.csv!.growthMb.toFixed(1)} MB ` +
      `(${verdict(Math.max(imp.growthMb, exports.csv!.growthMb, exports.ndjson!.growthMb) < GOALS.growthMb)})`,
      `- import vs our single creates: ${(importRate / ours.perSecond).toFixed(1)}×; vs PocketBase's create loop: ${
        (importRate / theirs.perSecond).toFixed(1)
      }×`,
    ];
    return lines.join("\n");
  },
};

export const oneShots: OneShot[] = [recordTransfer];
