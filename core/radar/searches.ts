import type { RadarDeps } from "./ports.ts";
import type { Principal } from "../access/mod.ts";
import { type Collection, createCollection, findCollection, type RecordSchemaInput, updateCollection } from "../collections/mod.ts";
import { emit } from "../events/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { AppError, conflict, isAppError, validationFailed } from "../kernel/errors.ts";
import { createTopic, topicBySlug } from "../topics/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { getCriterion } from "./criterion-topics.ts";
import { CRITERION_TAG, criterionBody, filterProblems } from "./criterion-block.ts";
import { MAX_RESULTS, type OpenedSearch, type OpenSearchDto } from "./dto.ts";
import { type RadarMonitor, type RadarRun, type RadarSearch } from "./model.ts";
import { missingResultFields } from "./result-fields.ts";
import { monthStart } from "./run-rules.ts";
import { toMonitorView, toRunView, toSearchView } from "./run-views.ts";
import { assertCanActOnRadar } from "./policy.ts";

/** Retries of the collection's update when it changed under the opening. */
const COLLECTION_ATTEMPTS = 3;

/**
 * The criterion a search names: an existing one (404 when the topic holds none), or a new one
 * written as a Note. Checked before anything is written.
 */
async function criterionFor(deps: RadarDeps, ws: Workspace, dto: OpenSearchDto) {
  if ((dto.criterion === undefined) === (dto.criterion_slug === undefined)) {
    throw validationFailed("Invalid search: give exactly one of criterion and criterion_slug", [
      { path: "/criterion", message: "exactly one of criterion and criterion_slug" },
    ]);
  }
  if (dto.criterion_slug !== undefined) return { existing: await getCriterion(deps, ws, dto.criterion_slug) };
  const c = dto.criterion!;
  const problems = filterProblems(c.kind, c.filter);
  if (problems.length > 0) {
    throw validationFailed(`Invalid filter for a ${c.kind} criterion`, problems.map((d) => ({ ...d, path: `/criterion${d.path}` })));
  }
  if (c.slug !== undefined) {
    const taken = await topicBySlug(deps, ws, c.slug).then(
      () => true,
      (e) => (isAppError(e) && e.code === "NOT_FOUND" ? false : Promise.reject(e)),
    );
    if (taken) throw conflict(`Topic slug is taken: ${c.slug}`);
  }
  return { create: c };
}

/** The collection's next schema with radar's fields declared (400 on a clash), or null when it has them all. */
function schemaWithResults(c: Collection, kind: "company" | "person"): RecordSchemaInput | null {
  const { missing, clashes } = missingResultFields(c.record_schema.fields, kind);
  if (clashes.length > 0) {
    throw validationFailed(
      "Invalid collection for radar: it declares radar's fields with another type",
      clashes.map((name) => ({
        path: `/collection_id`,
        message: `field ${name} is declared as ${c.record_schema.fields[name]!.type}`,
      })),
    );
  }
  if (Object.keys(missing).length === 0) return null;
  const wasOpen = c.record_schema.additional_fields === true || Object.keys(c.record_schema.fields).length === 0;
  return {
    fields: { ...c.record_schema.fields, ...missing },
    stages: c.record_schema.stages,
    // An open collection stays open to other fields once radar's are declared.
    ...(wasOpen ? { additional_fields: true } : {}),
  };
}

/** Declares radar's fields and names the criterion on an existing collection (retried on a concurrent change). */
async function prepareCollection(deps: RadarDeps, p: Principal, ws: Workspace, id: string, kind: "company" | "person", slug: string) {
  for (let attempt = 1;; attempt++) {
    const c = await findCollection(deps, ws, id);
    if (c.status !== "active") throw new AppError("NOT_FOUND", "Collection not found: it is not active");
    const schema = schemaWithResults(c, kind);
    const slugs = c.criterion_rel_slugs.includes(slug) ? null : [...c.criterion_rel_slugs, slug];
    if (schema === null && slugs === null) return c;
    try {
      await updateCollection(deps, p, ws, id, {
        ...(schema ? { record_schema: schema } : {}),
        ...(slugs ? { criterion_rel_slugs: slugs } : {}),
      }, c.version);
      return c;
    } catch (e) {
      if (!(isAppError(e) && e.code === "VERSION_CONFLICT" && attempt < COLLECTION_ATTEMPTS)) throw e;
    }
  }
}

/**
 * Opens a search: its criterion (existing, or written as a new Note), the collection its results
 * go to (existing and active, radar's fields declared there; or a new `pipeline` collection), a
 * first run in `draft`, and the monitor when asked. Everything that can be refused is checked
 * before anything is written.
 */
export async function openSearch(deps: RadarDeps, p: Principal, ws: Workspace, dto: OpenSearchDto): Promise<OpenedSearch> {
  assertCanActOnRadar(p, "openSearch");
  const criterion = await criterionFor(deps, ws, dto);
  const kind = criterion.existing?.kind ?? criterion.create!.kind;
  if (dto.collection_id !== undefined) {
    const c = await findCollection(deps, ws, dto.collection_id);
    if (c.status !== "active") throw new AppError("NOT_FOUND", "Collection not found: it is not active");
    schemaWithResults(c, kind);
  }

  let slug: string;
  if (criterion.create) {
    const c = criterion.create;
    const topic = await createTopic(deps, p, ws, {
      title: c.title,
      ...(c.slug !== undefined ? { slug: c.slug } : {}),
      body: criterionBody({ kind: c.kind, filter: c.filter }),
      tags: [CRITERION_TAG],
    });
    slug = topic.slug;
  } else slug = criterion.existing!.slug;
  const view = await getCriterion(deps, ws, slug);

  const name = dto.name ?? view.title;
  let collectionId: string;
  if (dto.collection_id !== undefined) collectionId = (await prepareCollection(deps, p, ws, dto.collection_id, kind, slug)).id;
  else {
    const { missing } = missingResultFields({}, kind);
    const created = await createCollection(deps, p, ws, {
      name: name.slice(0, 200),
      archetype: "pipeline",
      record_schema: { fields: missing, additional_fields: true },
      criterion_rel_slugs: [slug],
    });
    collectionId = created.id;
  }

  const now = deps.clock.now();
  const at = now.toISOString();
  const search: RadarSearch = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    name,
    criterion_slug: slug,
    kind,
    collection_id: collectionId,
    max_results: dto.max_results ?? MAX_RESULTS.default,
    created_by: p.identityId,
    created_at: at,
  };
  const monitor: RadarMonitor | null = dto.monitor
    ? {
      id: uuidv7(now.getTime()),
      workspace_id: ws.id,
      search_id: search.id,
      first_run_id: "",
      interval: dto.monitor.interval,
      state: "active",
      paused_reason: null,
      budget_credits: dto.monitor.budget_credits,
      spent_credits: 0,
      period_start: monthStart(now),
      next_run_at: null,
      last_run_id: null,
      version: 1,
      created_at: at,
      updated_at: at,
    }
    : null;
  const run = newRun(search, at, now.getTime(), p.identityId, null);
  if (monitor) monitor.first_run_id = run.id;
  await deps.stores.radarRuns.insertSearch(search);
  await deps.stores.radarRuns.insertRun(run);
  if (monitor) await deps.stores.radarMonitors.insertMonitor(monitor);
  await emit(deps, ws.id, "radar.search_opened", p, { search_id: search.id, run_id: run.id, collection_id: collectionId });
  return { search: toSearchView(search), run: toRunView(run), criterion: view, monitor: monitor ? toMonitorView(monitor) : null };
}

/** A new run of a search, in `draft`. */
export function newRun(search: RadarSearch, at: string, ms: number, actor: string | null, monitorId: string | null): RadarRun {
  return {
    id: uuidv7(ms),
    workspace_id: search.workspace_id,
    search_id: search.id,
    collection_id: search.collection_id,
    criterion_slug: search.criterion_slug,
    kind: search.kind,
    monitor_id: monitorId,
    state: "draft",
    quote: null,
    results: { matched: 0, created: 0, updated: 0, unchanged: 0 },
    hold_id: null,
    hold_credits: 0,
    charged_credits: 0,
    released_credits: 0,
    error: null,
    cursor: null,
    read: 0,
    lease_until: null,
    attempt: 0,
    actor_id: actor,
    version: 1,
    created_at: at,
    updated_at: at,
    started_at: null,
    finished_at: null,
  };
}
