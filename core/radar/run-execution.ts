import type { RadarDeps } from "./ports.ts";
import {
  type Collection,
  type CollectionRecord,
  type Entity,
  normalizeDedupKey,
  recordSearchText,
  validateRecordFields,
} from "../collections/mod.ts";
import { emit } from "../events/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { withCapacityInWrite } from "../kernel/capacity.ts";
import { isAppError } from "../kernel/errors.ts";
import { parseCriterion } from "./criterion-block.ts";
import type { RadarRun, ResultOutcome, RunResult, RunState } from "./model.ts";
import { type Prospect, type ProspectQuery } from "./prospect.ts";
import { type ProspectDirectory, ProspectDirectoryError } from "./ports.ts";
import { resultFields } from "./result-fields.ts";
import { chargeOf, isFinished } from "./run-rules.ts";
import { settleHold } from "../credits/mod.ts";
import { radarRunJob } from "./jobs.ts";
import { agentChange } from "./record-change.ts";
import { afterRunFinished } from "./monitor-schedule.ts";
import { trace } from "./trace.ts";

/**
 * Runs a queued run to its end (docs/decisions/026-radar-runs.md). Safe to call again at any point,
 * by any number of workers: a worker first takes the run's lease (compare-and-set, bumping
 * `attempt`), every result is claimed under (run, provider id) before its record is written, and
 * the hold is resolved once by the ledger. A worker that loses the lease stops at its next write.
 */

export const DEFAULT_RUN_LEASE_MS = 30_000;
const PAGE_SIZE = 100;
const PROVIDER_ATTEMPTS = 3;
const RESULT_PAGE = 500;

const leaseMs = (deps: RadarDeps) => deps.radarRunLeaseMs ?? DEFAULT_RUN_LEASE_MS;

/** Takes the run for this worker, or null when it is not runnable or another worker holds it. */
async function claim(deps: RadarDeps, run: RadarRun): Promise<RadarRun | null> {
  const now = deps.clock.now();
  if (run.state !== "queued" && run.state !== "running") return null;
  if (run.state === "running" && run.lease_until !== null && Date.parse(run.lease_until) > now.getTime()) return null;
  const next: RadarRun = {
    ...run,
    state: "running",
    attempt: run.attempt + 1,
    lease_until: new Date(now.getTime() + leaseMs(deps)).toISOString(),
    version: run.version + 1,
    updated_at: now.toISOString(),
  };
  if ((await deps.stores.radarRuns.updateRun(next)) !== "ok") return null;
  await trace(deps, next, next.attempt === 1 ? "run.running" : "run.resumed", { attempt: next.attempt, read: next.read });
  return next;
}

/** Calls the directory, retrying failures with backoff; the last failure is thrown. */
async function withRetries<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await call();
    } catch (e) {
      if (!(e instanceof ProspectDirectoryError) || attempt >= PROVIDER_ATTEMPTS) throw e;
      if (e.reason === "unauthorized" || e.reason === "bad_request" || e.reason === "unsupported_filter") throw e;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}

/** The entity a prospect is: a company by its domain, a person by `<provider>:<id>`. */
function entityOf(run: RadarRun, directory: ProspectDirectory, p: Prospect, fields: Record<string, unknown>, at: string): Entity {
  const dedup = p.kind === "company" && p.domain ? p.domain : `${directory.name}:${p.id}`;
  return {
    id: uuidv7(Date.parse(at)),
    workspace_id: run.workspace_id,
    kind: p.kind,
    name: p.name,
    dedup_key: dedup,
    dedup_norm: normalizeDedupKey(dedup),
    attributes: {
      ...fields,
      provider_ids: { [directory.name]: p.id },
      ...(p.kind === "person" && p.company_id ? { employer_ids: { [directory.name]: p.company_id } } : {}),
    },
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/** The entity's next state with this prospect's values, or null when it already has them. */
function mergeEntity(e: Entity, fresh: Entity, at: string): Entity | null {
  const ids = {
    ...(e.attributes.provider_ids as Record<string, string> | undefined),
    ...(fresh.attributes.provider_ids as Record<string, string>),
  };
  const employers = {
    ...(e.attributes.employer_ids as Record<string, string> | undefined),
    ...(fresh.attributes.employer_ids as Record<string, string> | undefined),
  };
  const attributes = {
    ...e.attributes,
    ...fresh.attributes,
    provider_ids: ids,
    ...(Object.keys(employers).length ? { employer_ids: employers } : {}),
  };
  if (JSON.stringify(attributes) === JSON.stringify(e.attributes) && e.name === fresh.name) return null;
  return { ...e, name: fresh.name, attributes, version: e.version + 1, updated_at: at };
}

const sameValues = (r: CollectionRecord, fields: Record<string, unknown>) =>
  Object.entries(fields).every(([k, v]) => JSON.stringify(r.fields[k]) === JSON.stringify(v));

/** Thrown when a result cannot be written where the run writes (the collection went away or changed). */
class RunCancelled extends Error {}
class RunRejected extends Error {}

/**
 * Makes the record hold what the result says: inserts it under the claimed id, or updates radar's
 * fields. Idempotent: a record that already holds the values is left alone.
 */
async function applyResult(deps: RadarDeps, run: RadarRun, c: Collection, provider: string, result: RunResult): Promise<void> {
  const at = deps.clock.now().toISOString();
  const meta = Object.fromEntries(Object.keys(result.fields).map((k) => [k, { source: `radar:${provider}`, updated_at: at }]));
  for (let attempt = 0; attempt < 3; attempt++) {
    const cur = await deps.stores.records.get(run.workspace_id, c.id, result.record_id);
    if (cur && sameValues(cur, result.fields)) return;
    const fields = { ...(cur?.fields ?? {}), ...result.fields };
    const checked = validateRecordFields(c.record_schema, fields);
    if (checked.errors.length > 0) {
      throw new RunRejected(`Cannot write result ${result.provider_id}: ${checked.errors[0]!.path} ${checked.errors[0]!.message}`);
    }
    const next: CollectionRecord = cur
      ? {
        ...cur,
        fields: checked.fields,
        field_meta: { ...cur.field_meta, ...meta },
        entity_id: result.entity_id,
        drifted: false,
        search_text: recordSearchText(checked.fields),
        updated_by: run.actor_id,
        version: cur.version + 1,
        updated_at: at,
      }
      : {
        id: result.record_id,
        workspace_id: run.workspace_id,
        collection_id: c.id,
        fields: checked.fields,
        status: c.record_schema.stages[0]!,
        field_meta: meta,
        entity_id: result.entity_id,
        drifted: false,
        search_text: recordSearchText(checked.fields),
        created_by: run.actor_id,
        updated_by: run.actor_id,
        version: 1,
        created_at: at,
        updated_at: at,
      };
    const write = { record: next, change: agentChange(cur, next, run.actor_id) };
    if (cur) {
      const r = await deps.stores.records.update(write);
      if (r === "ok") return;
      if (r === "not_found") throw new RunCancelled("a result's record was deleted while the run wrote it");
      continue;
    }
    try {
      // The record counts against the plan's limit (docs/decisions/031-plan-limits.md); past it, the run stops.
      const holder = { id: run.workspace_id, plan: (await deps.stores.workspaces.getById(run.workspace_id))?.plan ?? "free" };
      const records = deps.stores.records;
      const r = await withCapacityInWrite(
        deps.capacity,
        holder,
        "records",
        () => records.insert(write),
        records.insertClaiming && ((claim) => records.insertClaiming!(write, claim)),
        (x) => x === "collection_not_found",
      )
        .catch((e) => {
          if (isAppError(e) && e.code === "PLAN_LIMIT_REACHED") throw new RunCancelled("the plan's record limit is reached");
          throw e;
        });
      if (r === "collection_not_found") throw new RunCancelled("its collection was removed");
      return;
    } catch (e) {
      // Another worker of this run inserted the same record first: read it and compare again.
      if (e instanceof RunCancelled) throw e;
      if (!(await deps.stores.records.get(run.workspace_id, c.id, result.record_id))) throw e;
    }
  }
  throw new Error(`Cannot write result ${result.provider_id}: its record keeps changing`);
}

/** Writes one page of prospects: entities upserted, results claimed, records written. */
async function writePage(
  deps: RadarDeps,
  run: RadarRun,
  c: Collection,
  directory: ProspectDirectory,
  items: Prospect[],
  charged: { n: number; cap: number },
) {
  const at = deps.clock.now().toISOString();
  const entities: Entity[] = [];
  const fieldsOf: Record<string, unknown>[] = [];
  for (const p of items) {
    const fields = resultFields(p);
    const fresh = entityOf(run, directory, p, fields, at);
    const { entity } = await deps.stores.entities.upsert(fresh, (e) => mergeEntity(e, fresh, at));
    entities.push(entity);
    fieldsOf.push(fields);
  }
  const records = await deps.stores.records.byEntities(run.workspace_id, c.id, entities.map((e) => e.id));
  const byEntity = new Map<string, CollectionRecord>();
  for (const r of records) {
    if (!byEntity.has(r.entity_id!) || r.created_at < byEntity.get(r.entity_id!)!.created_at) byEntity.set(r.entity_id!, r);
  }
  let written = 0;
  for (const [i, p] of items.entries()) {
    const existing = byEntity.get(entities[i]!.id) ?? null;
    const outcome: ResultOutcome = !existing ? "created" : sameValues(existing, fieldsOf[i]!) ? "unchanged" : "updated";
    const proposed: RunResult = {
      workspace_id: run.workspace_id,
      run_id: run.id,
      provider_id: p.id,
      position: run.read + i + 1,
      entity_id: entities[i]!.id,
      record_id: existing?.id ?? uuidv7(Date.parse(at)),
      outcome,
      fields: fieldsOf[i]!,
      at,
    };
    // The quote caps what the run may charge: a result it cannot pay for ends the run (one a
    // previous attempt claimed is counted already, and a resumed run re-applies those at its end).
    if (outcome !== "unchanged" && charged.n >= charged.cap) return { written, full: true };
    const claimed = await deps.stores.radarRuns.claimResult(proposed);
    const result = claimed.claimed ? proposed : claimed.existing;
    if (claimed.claimed && result.outcome !== "unchanged") charged.n++;
    if (result.outcome !== "unchanged") await applyResult(deps, run, c, directory.name, result);
    written++;
  }
  return { written, full: false };
}

/** Why the run cannot go on where it writes, or null. */
async function cancelReason(deps: RadarDeps, run: RadarRun): Promise<string | null> {
  const c = await deps.stores.collections.get(run.workspace_id, run.collection_id);
  if (!c) return "its collection was purged";
  if (c.status !== "active") return "its collection was archived";
  const found = await deps.stores.topics.resolveMany(run.workspace_id, [run.criterion_slug]);
  const topic = found.get(run.criterion_slug)?.topic;
  if (!topic || !parseCriterion(topic.body).ok) return "its criterion was deleted";
  return null;
}

/** Runs (or resumes) a queued run: the job handler of `radar.run`. */
export async function executeRun(deps: RadarDeps, workspaceId: string, runId: string): Promise<void> {
  const stored = await deps.stores.radarRuns.getRun(workspaceId, runId);
  if (!stored) return;
  let run = await claim(deps, stored);
  if (!run) {
    // Held by a worker whose lease has not ended (maybe a dead one): look again once it has.
    const leased = stored.state === "running" && stored.lease_until !== null
      ? Date.parse(stored.lease_until) - deps.clock.now().getTime()
      : 0;
    if (leased > 0 && deps.jobs) await deps.jobs.enqueue(radarRunJob, workspaceId, { run_id: runId }, { delayMs: leased + 250 });
    return;
  }
  const quote = run.quote!;
  const directory = deps.prospects;
  const unit = quote.unit_credits;
  const counts = await deps.stores.radarRuns.countResults(workspaceId, runId);
  const charged = { n: counts.created + counts.updated, cap: unit === 0 ? quote.estimated_results : Math.floor(run.hold_credits / unit) };
  try {
    if (!directory) throw new ProspectDirectoryError("unavailable", "No prospect directory is configured");
    const query = { kind: run.kind, filter: quote.filter } as ProspectQuery;
    let done = run.read >= quote.max_results || quote.estimated_results === 0;
    while (!done) {
      const why = await cancelReason(deps, run);
      if (why) throw new RunCancelled(why);
      const c = (await deps.stores.collections.get(workspaceId, run.collection_id))!;
      const size = Math.min(PAGE_SIZE, quote.max_results - run.read);
      const cursor = run.cursor;
      const page = await withRetries(() => directory.search(query, { size, cursor }));
      const items = page.items.slice(0, size);
      const { written, full } = await writePage(deps, run, c, directory, items, charged);
      const now = deps.clock.now();
      const tally = await deps.stores.radarRuns.countResults(workspaceId, runId);
      const read = run.read + written;
      const next: RadarRun = {
        ...run,
        cursor: page.cursor,
        read,
        results: { matched: read, ...tally },
        lease_until: new Date(now.getTime() + leaseMs(deps)).toISOString(),
        version: run.version + 1,
        updated_at: now.toISOString(),
      };
      // Lost the lease (another worker took the run over): stop here, it goes on.
      if ((await deps.stores.radarRuns.updateRun(next)) !== "ok") return;
      run = next;
      await trace(deps, run, "provider.page", { items: items.length, written, total: page.total, read });
      done = full || page.cursor === null || items.length === 0 || read >= quote.max_results;
    }
    // A resumed run may hold claims an earlier attempt died before writing.
    if (run.attempt > 1) await repairRun(deps, run);
    await finishRun(deps, run, "completed");
  } catch (e) {
    if (e instanceof RunCancelled) {
      return void (await finishRun(deps, run, "cancelled", { code: "CANCELLED", message: `Run cancelled: ${e.message}` }));
    }
    if (e instanceof RunRejected) return void (await finishRun(deps, run, "failed", { code: "VALIDATION_FAILED", message: e.message }));
    if (e instanceof ProspectDirectoryError) {
      return void (await finishRun(deps, run, "failed", { code: `PROVIDER_${e.reason.toUpperCase()}`, message: e.message }));
    }
    throw e;
  }
}

/**
 * Settles a run: counts its results, resolves its hold once (the charge captured, the rest
 * released) and, when `state` is given and the run is not finished yet, finishes it with its
 * terminal step. With `state` null (a reconcile), only settles what a finished run left open.
 */
export async function finishRun(deps: RadarDeps, run: RadarRun, state: RunState | null, error: RadarRun["error"] = null): Promise<void> {
  const counts = await deps.stores.radarRuns.countResults(run.workspace_id, run.id);
  const unit = run.quote?.unit_credits ?? 0;
  let chargedCredits = chargeOf(counts, unit, run.hold_credits);
  if (run.hold_id) {
    const resolution = await settleHold(deps, run.workspace_id, run.hold_id, chargedCredits, { run_id: run.id, reason: "radar run" });
    chargedCredits = Math.abs(resolution.amount); // a capture's amount is its negated charge; a release's is 0
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const cur = (await deps.stores.radarRuns.getRun(run.workspace_id, run.id))!;
    const finishing = state !== null && !isFinished(cur.state);
    const at = deps.clock.now().toISOString();
    const next: RadarRun = {
      ...cur,
      state: finishing ? state! : cur.state,
      error: finishing ? error : cur.error,
      results: { matched: Math.max(cur.read, counts.created + counts.updated + counts.unchanged), ...counts },
      charged_credits: chargedCredits,
      released_credits: run.hold_id ? run.hold_credits - chargedCredits : 0,
      lease_until: null,
      finished_at: cur.finished_at ?? (finishing ? at : null),
      version: cur.version + 1,
      updated_at: at,
    };
    if ((await deps.stores.radarRuns.updateRun(next)) !== "ok") continue;
    if (finishing) {
      await trace(deps, next, `run.${next.state}`, { results: next.results, charged_credits: next.charged_credits, error: next.error });
      await emit(deps, next.workspace_id, `radar.run_${next.state}`, null, {
        run_id: next.id,
        results: next.results,
        charged_credits: next.charged_credits,
      });
      await afterRunFinished(deps, next);
    }
    return;
  }
  throw new Error(`Cannot settle run ${run.id}: it keeps changing`);
}

/** Re-applies every result a finished run claimed, so its records hold what it charged for. */
export async function repairRun(deps: RadarDeps, run: RadarRun): Promise<void> {
  const c = await deps.stores.collections.get(run.workspace_id, run.collection_id);
  if (!c || c.status !== "active" || !deps.prospects) return;
  for (let after = 0;;) {
    const page = await deps.stores.radarRuns.results(run.workspace_id, run.id, after, RESULT_PAGE);
    for (const r of page.items) if (r.outcome !== "unchanged") await applyResult(deps, run, c, deps.prospects.name, r);
    if (page.next === null) return;
    after = page.next;
  }
}
