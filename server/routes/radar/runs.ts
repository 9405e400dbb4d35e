import { Type } from "@sinclair/typebox";
import { EnrichResult, enrichRun } from "../../../core/contacts/mod.ts";
import {
  followTrace,
  getRun,
  getRunMonitor,
  getTrace,
  MonitorView,
  OpenedSearch,
  openSearch,
  OpenSearchDto,
  pauseMonitor,
  priceRun,
  PriceRunDto,
  reconcileRun,
  resumeMonitor,
  RunView,
  startRun,
  TraceView,
} from "../../../core/radar/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { IdempotencyHeaders, moneyMoving } from "../../http/idempotent-route.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["radar"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const RunParams = Type.Object({ slug: SlugSchema, runId: Type.String({ description: "The run's id (UUID)." }) }, strict);
const enc = new TextEncoder();
const noCredits = () => 0;
const chargedOf = (r: { charged_credits: number }) => r.charged_credits;

const sseError = (statuses: number[]) =>
  Object.fromEntries(
    Object.entries(errors(...statuses)).map((
      [s, schema],
    ) => [s, { description: schema.description ?? "Error", content: { "application/json": { schema } } }]),
  );

const runAction = (summary: string, description: string) => ({
  params: RunParams,
  headers: IdempotencyHeaders,
  response: { 201: RunView, ...errors(400, 401, 402, 403, 404, 409) },
  detail: { ...authenticated, tags, summary, description },
});
const enrichAction = (summary: string, description: string) => ({
  params: RunParams,
  headers: IdempotencyHeaders,
  response: { 201: EnrichResult, ...errors(400, 401, 402, 403, 404, 409) },
  detail: { ...authenticated, tags, summary, description },
});

type RunScope = ReturnType<typeof workspaceScope>;

/** Radar's searches, runs, traces and monitors (ADR 026). */
export function radarRunRoutes(deps: ServerDeps) {
  const core = deps.core;
  const scope = workspaceScope(deps, "radar-runs");
  const r = scope
    .post("/radar/searches", async ({ principal, workspace, body, set }) => {
      set.status = 201;
      return await openSearch(core, principal, workspace, body);
    }, {
      parse: "json",
      params: SlugParams,
      body: OpenSearchDto,
      response: { 201: OpenedSearch, ...errors(400, 401, 403, 404, 409, 413) },
      detail: {
        ...authenticated,
        tags,
        summary: "Open a radar search",
        description:
          "Exactly one of `criterion` (written as a new topic, a Note tagged `radar-criterion`; a taken slug is 409) and `criterion_slug` (an existing criterion; 404 when the topic holds none). Results go to `collection_id` (an active collection of this workspace, else 404) or, omitted, a new `pipeline` collection. Radar's fields are declared in the collection's `record_schema` where missing (a field declared with another type is a 400); an open collection stays open to other fields. The criterion's slug joins the collection's `criterion_rel_slugs`. Answers the search, its first run (`draft`: price it, then start it), the criterion and the monitor (null without `monitor`).",
      },
    })
    .get("/radar/runs/:runId", ({ workspace, params }) => getRun(core, workspace, params.runId), {
      params: RunParams,
      response: { 200: RunView, ...errors(400, 401, 404) },
      detail: {
        ...authenticated,
        tags,
        summary: "Read a run",
        description:
          "`state`: draft → priced → queued → running → completed | failed | cancelled. `charged_credits` = (created + updated) × the quote's `unit_credits`, never above its `max_credits`; unchanged results are free. On a finished run `released_credits` = `hold_credits` − `charged_credits`.",
      },
    });
  runActionRoutes(scope, core);
  runTraceRoutes(scope, deps);
  runMonitorRoutes(scope, core);
  return r;
}

/** A run priced, started, reconciled and enriched (the idempotent actions). */
function runActionRoutes(r: RunScope, core: ServerDeps["core"]): void {
  r
    .post(
      "/radar/runs/:runId/price",
      ({ principal, workspace, params, body, request, set }) =>
        moneyMoving(
          core,
          request,
          set,
          { workspace_id: workspace.id, scope: "radar.price", request: { run: params.runId, body } },
          () => priceRun(core, principal, workspace, params.runId, body),
          noCredits,
        ),
      {
        ...runAction(
          "Price a run",
          "Quotes the run: `estimated_results` = min(`max_results`, matches now), `max_credits` = `estimated_results` × `unit_credits`, valid `ttl_seconds` (default 900). Holds nothing; pricing again replaces the quote. Only a `draft` or `priced` run (else 409 `CONFLICT` with `current_state`). Answers `X-Credits-Charged: 0`.",
        ),
        parse: "json",
        body: PriceRunDto,
      },
    )
    .post(
      "/radar/runs/:runId/start",
      ({ principal, workspace, params, request, set }) =>
        moneyMoving(
          core,
          request,
          set,
          { workspace_id: workspace.id, scope: "radar.start", request: { run: params.runId } },
          () => startRun(core, principal, workspace, params.runId),
          chargedOf,
        ),
      runAction(
        "Start a run",
        "Holds the quote's `max_credits` and queues the run; a worker writes its results and then charges what they cost, releasing the rest of the hold. Refused with nothing held or written, the run staying `priced`: 402 `INSUFFICIENT_CREDITS` (with `required`, `available`, `shortfall`), 409 `QUOTE_EXPIRED`, 409 `QUOTE_STALE` (the criterion changed since the quote). A run starts once (409 `CONFLICT` after).",
      ),
    )
    .post(
      "/radar/runs/:runId/reconcile",
      ({ principal, workspace, params, set }) => {
        set.status = 201;
        return reconcileRun(core, principal, workspace, params.runId).then((run) => {
          set.headers["x-credits-charged"] = String(run.charged_credits);
          return run;
        });
      },
      {
        params: RunParams,
        response: { 201: RunView, ...errors(400, 401, 403, 404, 409) },
        detail: {
          ...authenticated,
          tags,
          summary: "Reconcile a run",
          description:
            "A `queued` or `running` run whose worker's lease ended is resumed (a run a worker still holds: 409). A finished run is checked and repaired: its hold resolved once (charge captured, the rest released) and its results' records written. Moves nothing beyond the hold. `draft` and `priced` runs: 409 `CONFLICT`.",
        },
      },
    )
    .post(
      "/radar/runs/:runId/enrich",
      ({ principal, workspace, params, request, set }) =>
        moneyMoving(
          core,
          request,
          set,
          { workspace_id: workspace.id, scope: "radar.enrich", request: { run: params.runId } },
          () => enrichRun(core, principal, workspace, params.runId, "results"),
          chargedOf,
        ),
      enrichAction(
        "Enrich a run's results",
        "Adds the directory's full profile to each result's entity (`attributes.profile`, `attributes.enriched_at`), at `company_enrichment` or `person_enrichment` credits per profile found. The total is held first (402 when short, nothing charged); entities enriched before are `skipped` and a profile the directory lacks is `missed`, both free. Only a `completed` run (else 409 `CONFLICT` with `current_state`).",
      ),
    )
    .post(
      "/radar/runs/:runId/enrich/companies",
      ({ principal, workspace, params, request, set }) =>
        moneyMoving(
          core,
          request,
          set,
          { workspace_id: workspace.id, scope: "radar.enrich.companies", request: { run: params.runId } },
          () => enrichRun(core, principal, workspace, params.runId, "companies"),
          chargedOf,
        ),
      enrichAction(
        "Enrich the companies of a run's results",
        "For a person run, each person's employer is upserted as a company entity (by domain) and linked from the person (`attributes.company_entity_id`); for a company run, its results. Then as `…/enrich`, at `company_enrichment` credits per profile found.",
      ),
    );
}

/** A run's trace, and its progress as a stream. */
function runTraceRoutes(r: RunScope, deps: ServerDeps): void {
  const core = deps.core;
  r
    .get("/radar/runs/:runId/trace", ({ workspace, params }) => getTrace(core, workspace, params.runId), {
      params: RunParams,
      response: { 200: TraceView, ...errors(400, 401, 404) },
      detail: {
        ...authenticated,
        tags,
        summary: "A run's trace",
        description:
          "Append-only steps `{seq, type, at, data}` in order: `run.priced`, `run.started`, `run.running` (or `run.resumed` after a take-over), `provider.page` per page read, and the terminal `run.completed`, `run.failed` or `run.cancelled` last.",
      },
    })
    .get(
      "/radar/runs/:runId/stream",
      async ({ workspace, params, request }) => {
        await getRun(core, workspace, params.runId);
        const header = request.headers.get("last-event-id");
        const after = header !== null && /^\d{1,9}$/.test(header) ? Number(header) : 0;
        const stop = new AbortController();
        request.signal.addEventListener("abort", () => stop.abort(), { once: true });
        deps.shutdown?.addEventListener("abort", () => stop.abort(), { once: true });
        const steps = followTrace(core, workspace.id, params.runId, after, stop.signal);
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(enc.encode(": run trace\nretry: 3000\n\n"));
            try {
              for await (const step of steps) {
                controller.enqueue(enc.encode(`id: ${step.seq}\nevent: ${step.type}\ndata: ${JSON.stringify(step)}\n\n`));
              }
            } catch {
              // the store failed mid-stream: end it; the client resumes with Last-Event-ID
            }
            try {
              controller.close();
            } catch {
              // closed by the client
            }
          },
          cancel() {
            stop.abort();
          },
        });
        return new Response(stream, {
          headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
        });
      },
      {
        params: RunParams,
        detail: {
          ...authenticated,
          tags,
          summary: "Follow a run (Server-Sent Events)",
          description:
            "The run's trace as Server-Sent Events: `id` (the step's `seq`), `event` (its type), `data` (the step as JSON). From the start, or after the step named by `Last-Event-ID`, then live; the stream closes after the terminal step (at once when the run has finished).",
          parameters: [{
            in: "header",
            name: "last-event-id",
            required: false,
            schema: { type: "string", pattern: "^\\d{1,9}$" },
            description: "Resume after this step's `seq`.",
          }],
          responses: {
            200: {
              description: "The steps, then the end of the stream.",
              content: { "text/event-stream": { schema: { type: "string" } } },
            },
            ...sseError([400, 401, 404]),
          },
        },
      },
    );
}

/** A search's monitor: read, paused and resumed. */
function runMonitorRoutes(r: RunScope, core: ServerDeps["core"]): void {
  r
    .get("/radar/runs/:runId/monitor", ({ workspace, params }) => getRunMonitor(core, workspace, params.runId), {
      params: RunParams,
      response: { 200: MonitorView, ...errors(400, 401, 404) },
      detail: {
        ...authenticated,
        tags,
        summary: "The monitor of a run's search",
        description:
          "Re-runs the search every `interval` once its first run completed, each run priced within what is left of `budget_credits` this calendar month (UTC) and charging new and changed results only. `paused_reason`: `manual`, or `insufficient_credits` (it paused itself). 404 when the search has no monitor.",
      },
    })
    .post("/radar/runs/:runId/monitor/pause", async ({ principal, workspace, params, set }) => {
      set.status = 201;
      return await pauseMonitor(core, principal, workspace, params.runId);
    }, {
      params: RunParams,
      response: { 201: MonitorView, ...errors(400, 401, 403, 404, 409) },
      detail: {
        ...authenticated,
        tags,
        summary: "Pause a monitor",
        description: "Idempotent: pausing a paused monitor changes nothing. 404 when the search has no monitor.",
      },
    })
    .post("/radar/runs/:runId/monitor/resume", async ({ principal, workspace, params, set }) => {
      set.status = 201;
      return await resumeMonitor(core, principal, workspace, params.runId);
    }, {
      params: RunParams,
      response: { 201: MonitorView, ...errors(400, 401, 403, 404, 409) },
      detail: {
        ...authenticated,
        tags,
        summary: "Resume a monitor",
        description:
          "Idempotent. Once the search has had a run, the next one is due at once; before, the monitor waits for the first run to complete.",
      },
    });
}
