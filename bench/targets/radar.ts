/**
 * Radar on a fresh database (ADR 021, 025, 050): the credit ledger's hot account, and contact unlocks.
 *
 * - Hot account: `POST …/radar/credits/grant` by the platform operator, each request one ledger
 *   append on the workspace's one account row: the same guarded update and entry insert, in one
 *   transaction, that a debit takes (adapters/postgres/credits/). So its requests/s are the hot
 *   account's appends/s.
 * - Unlocks: people found by radar runs (the sample directory) in one collection, then
 *   `POST …/contact-paths/unlock` of one contact path per request, each never unlocked before
 *   (wrk-bodies.lua; 5,000 people × 3 kinds): a hold, a claim, a lookup, a settle, the capture,
 *   the record and entity writes. (A request for all three kinds of one person makes the same
 *   statements, but only 5,000 such requests exist: too few for a run at these rates.)
 *
 * On PostgreSQL the workspace also gets an unlock history (other people's contact paths, settled
 * long ago) and `VACUUM ANALYZE` follows the seeding, as autovacuum soon would: the unlock table
 * of a workspace in steady state is not empty, and plans made for an empty one (a sequential
 * scan, cached by every pooled connection for the whole run) would measure a fresh install.
 *
 * Environment:
 *   BENCH_RADAR_PEOPLE         person records seeded on PostgreSQL (default 5000, at most 5000)
 *   BENCH_RADAR_UNLOCK_HISTORY settled unlocks seeded before the load on PostgreSQL (default 20000)
 *   BENCH_RADAR_PEOPLE_MONGO   the same on MongoDB (FerretDB) (default 300)
 */
import type { BenchContext } from "../scenario.ts";
import { type App, startApp } from "./app.ts";
import { freshMongo, freshPostgres, positiveInt } from "./topics.ts";
import { vacuumAnalyze } from "./postgres.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { ContactUnlock } from "../../core/contacts/mod.ts";

export type RadarBackend = "postgres" | "mongo";
export const OPERATOR_KEY = `bench-operator-${"k".repeat(32)}`;
const COUNTRIES = ["US", "GB", "DE", "FR", "NL", "ES", "SE", "CA", "AU", "IN"];

export function radarPeople(backend: RadarBackend): number {
  return Math.min(5_000, backend === "postgres" ? positiveInt("BENCH_RADAR_PEOPLE", 5_000) : positiveInt("BENCH_RADAR_PEOPLE_MONGO", 300));
}

export interface RadarApp extends App {
  collectionId: string;
  recordIds: string[];
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function call(app: App, method: string, path: string, body?: unknown, key = app.apiKey): Promise<Json> {
  const res = await fetch(`${app.origin}/api/v1/workspaces/${app.slug}${path}`, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Runs searches over the sample directory's people, 500 per country, into one collection. */
async function seedPeople(app: App, count: number): Promise<{ collectionId: string; recordIds: string[] }> {
  await call(app, "POST", "/radar/credits/grant", { amount: 1_000_000_000 }, OPERATOR_KEY);
  const started = performance.now();
  let collectionId: string | undefined;
  for (let i = 0; i * 500 < count; i++) {
    // One country per run (500 people each): its own criterion, one collection for all.
    const country = COUNTRIES[i]!;
    const one = await call(app, "POST", "/radar/searches", {
      criterion: { title: `People in ${country}`, kind: "person", filter: { countries: [country] } },
      ...(collectionId ? { collection_id: collectionId } : {}),
      max_results: Math.min(500, count - i * 500),
    });
    collectionId = one.search.collection_id;
    const run = one.run.id;
    await call(app, "POST", `/radar/runs/${run}/price`, {});
    await call(app, "POST", `/radar/runs/${run}/start`);
    for (;;) {
      const r = await call(app, "GET", `/radar/runs/${run}`);
      if (r.state === "completed") break;
      if (r.state === "failed" || r.state === "cancelled") throw new Error(`seeding run ${r.state}: ${JSON.stringify(r.error)}`);
      await Bun.sleep(200);
    }
  }
  const recordIds: string[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page: Json = await call(app, "GET", `/collections/${collectionId}/records?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
    for (const r of page.records) if (r.fields.job_title !== undefined || r.fields.seniority !== undefined) recordIds.push(r.id);
    cursor = page.nextCursor;
  }
  console.log(`  radar: ${recordIds.length} person records from runs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { collectionId: collectionId!, recordIds };
}

/**
 * Settled unlocks of people the load never asks for, written through the store port as paid
 * unlocks of 10 paths each (a grant of their cost, then per request a hold and its capture, as the
 * ledger of a workspace with that history holds: 2 entries a request), then `VACUUM ANALYZE`.
 * Without the ledger entries the statistics described an empty ledger, and the plans made from
 * them scanned it as it grew during the load.
 */
async function seedUnlockHistory(databaseUrl: string, slug: string, count: number): Promise<void> {
  const started = performance.now();
  const { openPostgresStores } = await import("../../adapters/postgres/mod.ts");
  const stores = await openPostgresStores(databaseUrl, { max: 4 });
  try {
    const workspace = await stores.workspaces.getBySlug(slug);
    if (!workspace) throw new Error(`Cannot seed unlocks: workspace ${slug} not found`);
    const kinds = ["email", "phone", "linkedin"] as const;
    const at = new Date(Date.now() - 86_400_000).toISOString();
    await stores.creditLedger.append({
      workspace_id: workspace.id,
      id: uuidv7(),
      at,
      op: { type: "grant", amount: count },
      reason: "unlock history",
    });
    for (let done = 0; done < count;) {
      const token = uuidv7();
      const batch: ContactUnlock[] = [];
      for (; batch.length < 10 && done < count; done++) {
        batch.push({
          workspace_id: workspace.id,
          entity_id: uuidv7(),
          kind: kinds[done % 3]!,
          state: "pending",
          value: null,
          credits: 0,
          token,
          claimed_at: at,
          settled_at: null,
        });
      }
      await stores.contactUnlocks.beginUnlocks(batch, { amount: batch.length, reason: "contact unlock", lease_until: at }, at);
      await stores.contactUnlocks.finishUnlocks(
        workspace.id,
        token,
        batch.map((u) => ({ ...u, state: "unlocked", value: `${u.kind}-value`, credits: 1, settled_at: at })),
        { id: uuidv7(), at, reason: "contact unlock" },
      );
    }
  } finally {
    await stores.close();
  }
  console.log(`  radar: ${count} settled unlocks of other people in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await vacuumAnalyze(databaseUrl);
}

/** The server on a fresh database of the backend, with the operator key and seeded people. */
export function radarApp(ctx: BenchContext, backend: RadarBackend): Promise<RadarApp> {
  return ctx.use(`app:radar:${backend}`, async () => {
    const env: Record<string, string> = { PLATFORM_ADMIN_KEY: OPERATOR_KEY };
    const databaseUrl = backend === "postgres" ? await freshPostgres(ctx) : null;
    const started = databaseUrl
      ? await startApp("server (radar, postgres)", databaseUrl, env, "bench-radar")
      : await startApp("server (radar, mongo)", undefined, { ...env, MONGO_URL: await freshMongo(ctx) }, "bench-radar");
    try {
      const seeded = await seedPeople(started.value, radarPeople(backend));
      if (databaseUrl) await seedUnlockHistory(databaseUrl, started.value.slug, positiveInt("BENCH_RADAR_UNLOCK_HISTORY", 20_000));
      return { value: { ...started.value, ...seeded }, stop: started.stop };
    } catch (error) {
      await started.stop();
      throw error;
    }
  });
}

/**
 * One body per contact path: every request unlocks one never unlocked before (a hold, a claim, a
 * lookup, a settle, the capture, the record and entity writes). The kinds are interleaved (an
 * e-mail, a phone, a LinkedIn profile, of people a third of the list apart), so every stretch of
 * the run has the same mix (about half the phones are misses, which write no values), whichever
 * stretch the warm-up leaves to the measurement; the same person comes back only about
 * `recordIds.length` requests later.
 */
export const unlockBodies = (recordIds: string[]) => {
  const kinds = ["email", "phone", "linkedin"] as const;
  const n = recordIds.length;
  return Array.from({ length: n * 3 }, (_, i) => {
    const k = i % 3;
    const person = (Math.floor(i / 3) + Math.floor((k * n) / 3)) % n;
    return JSON.stringify({ record_ids: [recordIds[person]], kinds: [kinds[k]] });
  });
};
