/**
 * An import interrupted the hard way (issue #25, ADR 068 "Resume"): a real server process on
 * PostgreSQL is killed with SIGKILL while it writes a workspace archive of thousands of records,
 * a new server starts on the same database, and the same archive is sent again. It completes the
 * import, duplicates nothing (the database holds each record once), and the workspace then
 * exports the same data as the source, line for line; a third import changes nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import postgres from "postgres";
import { importedId } from "../../core/portability/mod.ts";
import { type AppServer, bootstrapWorkspace, startAppServer } from "../support/app-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { archiveLines, mapLines } from "../api/workspace-archive.suite.ts";

const RECORDS = 12_000;
const env = {
  SECRET_KEY: "resume-test-secret-resume-test-secret-0123",
  LOG_LEVEL: "warn",
  RATE_LIMIT_PER_KEY: "0",
  REDIS_URL: undefined,
  MONGO_URL: undefined,
};

let databaseUrl: string;
let server: AppServer;
let sql: postgres.Sql;

beforeAll(async () => {
  databaseUrl = await freshDatabase(await sharedPostgres());
  server = await startAppServer({ name: "import-resume-1", databaseUrl, env });
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await sql?.end({ timeout: 1 });
});

async function call(method: string, path: string, key: string, body?: BodyInit, type = "application/json") {
  const res = await fetch(`${server.origin}/api/v1${path}`, { method, headers: { "x-api-key": key, "content-type": type }, body });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

const exportOf = async (slug: string, key: string) => {
  const res = await fetch(`${server.origin}/api/v1/workspaces/${slug}/export`, { headers: { "x-api-key": key } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

const importInto = (slug: string, key: string, archive: Uint8Array) =>
  call("POST", `/workspaces/${slug}/import`, key, archive as Uint8Array<ArrayBuffer>, "application/gzip");

test("kill -9 in the middle of an import, restart, send it again: complete, nothing twice, equal to the source", async () => {
  const src = await bootstrapWorkspace(server.origin, "resume-src");
  const c = await call(
    "POST",
    `/workspaces/${src.slug}/collections`,
    src.apiKey,
    JSON.stringify({
      name: "Leads",
      archetype: "pipeline",
      record_schema: { fields: { company: { type: "string", required: true }, seats: { type: "integer" } } },
    }),
  );
  expect(c.status).toBe(201);
  const csv = ["company,seats", ...Array.from({ length: RECORDS }, (_, i) => `Company ${i},${i % 500}`)].join("\n");
  const seeded = await call("POST", `/workspaces/${src.slug}/collections/${c.body.id}/records/import`, src.apiKey, csv, "text/csv");
  expect(seeded.status).toBe(201);
  expect(seeded.body.created).toBe(RECORDS);
  const archive = await exportOf(src.slug, src.apiKey);
  const first = await archiveLines(archive);
  expect(first.kinds.get("records")?.length).toBe(RECORDS);

  // A new workspace of the same owner (an existing person creates one with their key).
  const made = await call("POST", "/workspaces", src.apiKey, JSON.stringify({ slug: "resume-dst" }));
  expect(made.status).toBe(201);
  const dst = { slug: "resume-dst", apiKey: made.body.api_key.key as string };
  const dstId = made.body.workspace.id as string;
  const count = async () => Number((await sql`select count(*)::int as n from collection_records where workspace_id = ${dstId}`)[0]!.n);

  // The import runs; SIGKILL once some records are written and not all.
  const pending = importInto(dst.slug, dst.apiKey, archive).catch((e) => ({ status: 0, body: String(e) }));
  let seen = 0;
  for (const t0 = Date.now(); Date.now() - t0 < 120_000;) {
    seen = await count();
    if (seen > 0) break;
    await Bun.sleep(5);
  }
  process.kill(server.child.pid, "SIGKILL");
  await server.child.exited;
  const interrupted = await pending;
  expect(interrupted.status).not.toBe(201);
  const atKill = await count();
  expect(atKill).toBeGreaterThan(0);
  expect(atKill).toBeLessThan(RECORDS);

  await server.stop();
  server = await startAppServer({ name: "import-resume-2", databaseUrl, env });
  const resumed = await importInto(dst.slug, dst.apiKey, archive);
  expect(resumed.status).toBe(201);
  const records = resumed.body.kinds.records;
  expect(records.created + records.unchanged).toBe(RECORDS);
  expect(records.unchanged).toBe(atKill);
  expect(records.skipped).toBe(0);
  expect(await count()).toBe(RECORDS);

  // Equal to the source, line for line (ids derived from this workspace: its source is on this server).
  const second = await archiveLines(await exportOf(dst.slug, dst.apiKey));
  const expected = mapLines(first.kinds, (kind, id) => importedId(dstId, kind, id));
  const actual = mapLines(second.kinds, (_kind, id) => id);
  for (const [kind, lines] of expected) expect({ kind, lines: actual.get(kind) ?? [] }).toEqual({ kind, lines });

  const again = await importInto(dst.slug, dst.apiKey, archive);
  expect(again.body.kinds.records).toMatchObject({ created: 0, unchanged: RECORDS, skipped: 0 });
  expect(await count()).toBe(RECORDS);
}, 600_000);
