/**
 * `npm run store:copy` end to end (issue #25, ADR 069): a real server on the embedded store gets
 * data through the API and is stopped; the store is copied embedded → PostgreSQL → MongoDB
 * (FerretDB) → embedded by the command as a child process; a server on the last copy answers a
 * fixed list of API reads byte for byte as the first did, and the API key minted at the start
 * still works. Then a copy killed with SIGKILL mid-way continues with --resume, and a target
 * that is not empty is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { generateRawKey, hashRawKey } from "../../core/access/raw-key.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { type AppServer, bootstrapWorkspace, PROJECT_ROOT, startAppServer, stopAllAppServers } from "../support/app-server.ts";
import { spawnChild } from "../support/child-process.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { bundle } from "../contract/fixtures.ts";

const STORE_COPY = join(PROJECT_ROOT, "server/store-copy/main.ts");
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

interface CopyRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the command as `npm run store:copy` does; `killWhen`: SIGKILL it on the first stderr line matching. */
async function storeCopy(args: string[], env: Record<string, string | undefined>, killWhen?: RegExp): Promise<CopyRun> {
  const out: string[] = [];
  const err: string[] = [];
  let killed = false;
  const child = spawnChild("store-copy", [process.execPath, STORE_COPY, ...args], {
    cwd: PROJECT_ROOT,
    // An inherited SECRET_KEY, DATABASE_URL or MONGO_URL must not leak into the command.
    env: { SECRET_KEY: undefined, DATABASE_URL: undefined, MONGO_URL: undefined, ...env },
    onLine(line, stream) {
      (stream === "out" ? out : err).push(line);
      if (killWhen && !killed && stream === "err" && killWhen.test(line)) {
        killed = true;
        process.kill(child.pid, "SIGKILL");
      }
    },
  });
  const code = await child.exited;
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The modules that declare transfer kinds (the copy carries theirs only). */
const MODULES_WITH_KINDS = new Set(createMemoryStores().transfer.kinds.map((k) => k.name.split(".")[0]!));

afterAll(async () => {
  await stopAllAppServers();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("store:copy round trip embedded → PostgreSQL → MongoDB → embedded", () => {
  const first = tempDir("wks-copy-first-");
  const last = tempDir("wks-copy-last-");
  let pgUrl: string;
  let mongoUrl: string;
  let secret: string;
  let server: AppServer;
  let slug: string;
  let ownerKey: string;
  let serviceKey: string;
  /** [module whose kinds the read needs, path] */
  let reads: Array<[string, string]>;
  const answers = new Map<string, { status: number; body: string }>();
  const copies: CopyRun[] = [];

  const get = async (origin: string, path: string, key: string) => {
    const r = await fetch(`${origin}/api/v1${path}`, { headers: { "x-api-key": key } });
    return { status: r.status, body: await r.text() };
  };
  const call = async (method: string, path: string, body: unknown) => {
    const r = await fetch(`${server.origin}/api/v1${path}`, {
      method,
      headers: { "x-api-key": ownerKey, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${text}`);
    return JSON.parse(text);
  };

  beforeAll(async () => {
    pgUrl = await freshDatabase(await sharedPostgres());
    mongoUrl = freshMongoDatabase(await sharedMongo());
    server = await startAppServer({ name: "first", dataDir: first });
    const boot = await bootstrapWorkspace(server.origin, "copy-round-trip");
    slug = boot.slug;
    ownerKey = boot.apiKey;
    const ws = `/workspaces/${slug}`;
    await call("POST", `${ws}/members`, { email: "zoë@example.com", name: "Zoë 山田", role: "admin" });
    await call("POST", `${ws}/members`, { email: "pat@example.com" });
    await call("POST", `${ws}/areas`, { name: "Platform", description: 'Ünïcode — "quoted"' });
    await call("POST", `${ws}/areas`, { name: "Billing" });
    serviceKey = (await call("POST", `${ws}/api-keys`, { service: true, name: "ci" })).key;
    const topic = await call("POST", `${ws}/topics`, { title: "Deploying the billing service", body: "Steps: drain, deploy, watch." });
    await call("POST", `${ws}/topics`, { title: "Runbook — ünïcode", body: "" });
    const collection = await call("POST", `${ws}/collections`, {
      name: "Leads",
      archetype: "pipeline",
      record_schema: { fields: { company: { type: "string" }, size: { type: "integer" } } },
    });
    for (const [company, size] of [["Acme GmbH", 120], ["Zoë & Co", 7], ["Big One", 9007199254740991]] as const) {
      await call("POST", `${ws}/collections/${collection.id}/records`, { fields: { company, size } });
    }
    reads = [
      ["workspaces", ws],
      ["workspaces", `${ws}/members`],
      ["workspaces", `${ws}/areas`],
      ["topics", `${ws}/topics`],
      ["topics", `${ws}/topics/${topic.slug}`],
      ["collections", `${ws}/collections`],
      ["collections", `${ws}/collections/${collection.id}`],
      ["collections", `${ws}/collections/${collection.id}/records`],
    ];
    for (const [, path] of reads) answers.set(path, await get(server.origin, path, ownerKey));
  });

  test("a copy of the embedded store is refused while its server runs (exit 3)", async () => {
    const run = await storeCopy(["--from", `file:${first}`, "--to", pgUrl], { SECRET_KEY: "x".repeat(40) });
    expect(run.code).toBe(3);
    expect(run.err).toContain("is open (pglite/postmaster.pid): stop the server first");
  });

  test("three copies each verify every kind (a live PostgreSQL source only in a snapshot), and a second copy into a filled target is refused (exit 4)", async () => {
    await server.stop();
    secret = readFileSync(join(first, "secret.key"), "utf8").trim();
    const env = { SECRET_KEY: secret };
    copies.push(await storeCopy(["--from", `file:${first}`, "--to", pgUrl], env));
    // A server on the PostgreSQL copy: reading it live is refused, unless in one snapshot.
    const live = await startAppServer({ name: "on-postgres", databaseUrl: pgUrl, env });
    try {
      const refused = await storeCopy(["--from", pgUrl, "--to", mongoUrl], env);
      expect(refused.code).toBe(3);
      expect(refused.err).toContain("A server is using the source");
      expect(refused.err).toContain("pass --snapshot");
      copies.push(await storeCopy(["--from", pgUrl, "--to", mongoUrl, "--snapshot"], env));
      expect(copies[1]!.err).toContain("read in one REPEATABLE READ snapshot (--snapshot)");
    } finally {
      await live.stop();
    }
    // Without SECRET_KEY: the embedded target gets the source's secret in its own secret.key.
    copies.push(await storeCopy(["--from", mongoUrl, "--to", `file:${last}`, "--source-stopped"], env));
    for (const run of copies) {
      expect({ code: run.code, err: run.err, out: run.out }).toMatchObject({ code: 0 });
      expect(run.out).toContain("counts and digests the same on both sides");
      expect(run.err).toContain("SECRET_KEY opens the source's API keys (2 checked)");
    }
    expect(copies[0]!.out).toMatch(/access\.api_keys\s+2\s+2\s+[0-9a-f]{64}\s+same/);
    expect(readFileSync(join(last, "secret.key"), "utf8").trim()).toBe(secret);

    const again = await storeCopy(["--from", `file:${first}`, "--to", pgUrl], env);
    expect(again.code).toBe(4);
    expect(again.err).toContain("refused: The target is not empty");
  });

  test("a server on the last copy answers the reads byte for byte, and the minted keys still work", async () => {
    const copy = await startAppServer({ name: "last", dataDir: last });
    const compared: string[] = [];
    for (const [module, path] of reads) {
      if (!MODULES_WITH_KINDS.has(module)) continue;
      expect({ path, ...(await get(copy.origin, path, ownerKey)) }).toEqual({ path, ...answers.get(path)! });
      compared.push(path);
    }
    expect(compared.length).toBeGreaterThanOrEqual(3);
    expect(await get(copy.origin, `/workspaces/${slug}`, serviceKey)).toEqual(answers.get(`/workspaces/${slug}`)!);
    const keys = JSON.parse((await get(copy.origin, `/workspaces/${slug}/api-keys`, ownerKey)).body);
    expect(keys.api_keys.length).toBe(2);
    expect(keys.api_keys.map((k: { name: string }) => k.name)).toContain("ci");
    await copy.stop();
  });
});

describe("store:copy killed mid-way continues with --resume", () => {
  const AREAS = 40_000;
  const SECRET = "r".repeat(48);
  const source = tempDir("wks-copy-big-");
  let pgUrl: string;
  let raw: string;

  beforeAll(async () => {
    pgUrl = await freshDatabase(await sharedPostgres());
    const stores = await openPgliteStores(join(source, "pglite"));
    const b = bundle("big-copy");
    raw = generateRawKey();
    b.apiKey = { ...b.apiKey, key_hash: hashRawKey(raw), key_ciphertext: await (await createSecretBox(SECRET)).seal(raw) };
    expect(await stores.workspaces.bootstrap(b)).toBe("ok");
    const areas = stores.transfer.kinds.find((k) => k.name === "workspaces.areas")!;
    const at = "2026-11-29T04:00:00.000Z";
    for (let i = 0; i < AREAS; i += 500) {
      const docs = Array.from({ length: 500 }, (_, j) => ({
        id: uuidv7(),
        workspace_id: b.workspace.id,
        name: `area ${i + j}`,
        description: j % 2 ? null : "ü",
        created_at: at,
        updated_at: at,
      }));
      await areas.write(docs);
    }
    await stores.close();
    writeFileSync(join(source, "secret.key"), `${SECRET}\n`);
  });

  test("SIGKILL mid-copy, a plain rerun refused, --resume completes and verifies", async () => {
    const env = { SECRET_KEY: SECRET };
    const cut = await storeCopy(["--from", `file:${source}`, "--to", pgUrl], env, /workspaces\.areas: \d+\/40000/);
    expect(cut.code).not.toBe(0);
    const target = await openPostgresStores(pgUrl, { max: 1 });
    try {
      const copied = await target.transfer.kinds.find((k) => k.name === "workspaces.areas")!.count();
      expect(copied).toBeGreaterThan(0);
      expect(copied).toBeLessThan(AREAS);
    } finally {
      await target.close();
    }

    const plain = await storeCopy(["--from", `file:${source}`, "--to", pgUrl], env);
    expect(plain.code).toBe(4);
    expect(plain.err).toContain("pass --resume to continue a copy that was cut short");

    const resumed = await storeCopy(["--from", `file:${source}`, "--to", pgUrl, "--resume"], env);
    expect({ code: resumed.code, err: resumed.err }).toMatchObject({ code: 0 });
    expect(resumed.err).toContain("copied workspaces.workspaces: already on the target");
    expect(resumed.out).toMatch(new RegExp(`workspaces\\.areas\\s+${AREAS}\\s+${AREAS}\\s+[0-9a-f]{64}\\s+same`));

    const after = await openPostgresStores(pgUrl, { max: 1 });
    try {
      expect((await after.apiKeys.findByHash(hashRawKey(raw)))?.workspace.slug).toBe("big-copy");
    } finally {
      await after.close();
    }
  });
});
