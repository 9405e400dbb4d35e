import { Type } from "@sinclair/typebox";
import {
  aggregateRecords,
  AggregateRecordsDto,
  type AggregateRecordsDto as AggregateBody,
  CollectionView,
  createRecord,
  CreateRecordDto,
  deleteRecord,
  getRecord,
  listRecords,
  queryRecords,
  QueryRecordsDto,
  type QueryRecordsDto as QueryBody,
  RecordChangeView,
  recordHistory,
  recordOutcome,
  RecordOutcomeDto,
  RecordView,
  retrieveRecords,
  updateRecord,
  UpdateRecordDto,
  type UpdateRecordDto as UpdateBody,
} from "../../../core/collections/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { setEtag, withEtag } from "../../http/etag.ts";
import { expectedVersion } from "../../http/expected-version.ts";
import { authenticated, errors } from "../../http/schemas.ts";
import {
  CollectionParams,
  HistoryQuery,
  IfMatch,
  RecordDeleteQuery,
  RecordGetQuery,
  RecordListQuery,
  RecordParams,
  RetrieveQuery,
  VersionQuery,
} from "./schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["records"];
const doc = (summary: string, description?: string) => ({ ...authenticated, tags, summary, ...(description ? { description } : {}) });
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: "The cursor of the next page; null on the last one." });
const RecordPage = Type.Object({ records: Type.Array(RecordView), nextCursor: NextCursor });
const Removal = Type.Object({
  dry_run: Type.Boolean(),
  removed: Type.Object({ record_id: Type.String(), history_entries: Type.Integer(), outcomes: Type.Integer() }),
});
const KEYSET =
  "Keyset paging: `limit` (1–200, default 50) and `cursor` (the previous page's `nextCursor`). A cursor only continues the listing it came from: with another filter, sort or query it is a 400. Pages neither repeat nor skip records that existed when paging began, whatever is inserted meanwhile.";
const VERSIONED =
  "Optimistic concurrency: `expected_version` or `If-Match`; a stale one is 409 `VERSION_CONFLICT` with `current_version`, and nothing is applied.";

type RecordScope = ReturnType<typeof workspaceScope>;

export function recordRoutes(deps: ServerDeps) {
  const core = deps.core;
  const scope = workspaceScope(deps, "records");
  const r = scope
    .post(
      "/collections/:id/records",
      async ({ principal, workspace, params, body, set }) => {
        set.status = 201;
        return withEtag(set, await createRecord(core, principal, workspace, params.id, body));
      },
      {
        parse: "json",
        params: CollectionParams,
        body: CreateRecordDto,
        response: { 201: RecordView, ...errors(400, 401, 402, 403, 404, 409, 413) },
        detail: doc(
          "Add a record",
          "`fields` are checked against the record_schema and `status` against the stages (default the first); `entity_id` and entity-typed fields must name entities of the workspace. Every problem is one 400 `VALIDATION_FAILED` with a detail per field. Records of an archived collection are read-only (409).",
        ),
      },
    )
    .get(
      "/collections/:id/records",
      ({ workspace, params, query }) => listRecords(core, workspace, params.id, query),
      {
        params: CollectionParams,
        query: RecordListQuery,
        response: { 200: RecordPage, ...errors(400, 401, 404) },
        detail: doc("List records", `Newest first, filtered by stage, entity, drift and last change. ${KEYSET}`),
      },
    );
  recordQueryRoutes(scope, core);
  recordItemRoutes(scope, core);
  recordHistoryRoutes(scope, core);
  return r;
}

/** Records queried, aggregated, and retrieved by meaning. */
function recordQueryRoutes(r: RecordScope, core: ServerDeps["core"]): void {
  r
    .post(
      "/collections/:id/records/query",
      async ({ workspace, params, body, set }) => {
        set.status = 201;
        return queryRecords(core, workspace, params.id, body as QueryBody);
      },
      {
        parse: "json",
        params: CollectionParams,
        body: QueryRecordsDto,
        response: { 201: RecordPage, ...errors(400, 401, 404, 413) },
        detail: doc(
          "Query records",
          `A filter tree of and/or over \`fields.<name>\` and the columns status, entity_id, drifted, created_at, updated_at, with operators typed by the record_schema (a wrong operator or value type is a 400 naming it); one sort key (missing values last), then id. ${KEYSET}`,
        ),
      },
    )
    .post(
      "/collections/:id/records/aggregate",
      async ({ workspace, params, body, set }) => {
        set.status = 201;
        return aggregateRecords(core, workspace, params.id, body as AggregateBody);
      },
      {
        parse: "json",
        params: CollectionParams,
        body: AggregateRecordsDto,
        response: {
          201: Type.Object({
            groups: Type.Array(
              Type.Object({
                key: Type.Record(Type.String(), Type.Unknown()),
                count: Type.Integer(),
                values: Type.Record(Type.String(), Type.Unknown()),
              }),
            ),
            truncated: Type.Boolean({ description: "More groups exist than `max_groups`: the largest ones are shown." }),
            source: Type.Union([Type.Literal("rollup"), Type.Literal("records")], {
              description:
                "`rollup`: answered from the rollup the store keeps of a declared aggregate (a read of its groups); `records`: by a scan of the records.",
            }),
          }),
          ...errors(400, 401, 404, 413),
        },
        detail: doc(
          "Aggregate records",
          "Groups (up to three keys; records without a value group under null), largest first, at most `max_groups` (default 100, max 1,000). sum of no values is 0; avg, min, max of none are null. " +
            "Ad hoc (`group_by`, `metrics`, `filter`), or an aggregate a view declares (`view`, `aggregate`; see the collection's `views[].aggregates`): " +
            "on PostgreSQL and the embedded store a declared aggregate, and an ad-hoc one without a filter whose keys and count, sum and avg metrics a declared one holds, " +
            "are read from a rollup the store updates with every record write; the answer is the same either way (`source` says which served it).",
        ),
      },
    )
    .get(
      "/collections/:id/retrieve",
      ({ workspace, params, query }) => retrieveRecords(core, workspace, params.id, query),
      {
        params: CollectionParams,
        query: RetrieveQuery,
        response: {
          200: Type.Object({
            collection: CollectionView,
            criterion: Type.Array(Type.Object({ slug: Type.String(), topic: Type.Record(Type.String(), Type.Unknown()) })),
            missing_criterion: Type.Array(Type.String()),
            records: Type.Array(RecordView),
            nextCursor: NextCursor,
          }),
          ...errors(400, 401, 404),
        },
        detail: doc(
          "Retrieve records with their criterion",
          `For agents: the records (filtered like the list; \`query\` matches words in their text values; \`fields\` projects) and the Knowledge topics of the criterion with their trust verdicts. ${KEYSET}`,
        ),
      },
    );
}

/** One record: read, edited, deleted. */
function recordItemRoutes(r: RecordScope, core: ServerDeps["core"]): void {
  r
    .get(
      "/collections/:id/records/:recordId",
      async ({ workspace, params, query, set }) => withEtag(set, await getRecord(core, workspace, params.id, params.recordId, query)),
      {
        params: RecordParams,
        query: RecordGetQuery,
        response: {
          200: Type.Composite([
            RecordView,
            Type.Object({
              truncated: Type.Boolean({ description: "True when the record was trimmed to max_bytes." }),
              omitted: Type.Optional(Type.Array(Type.String(), { description: "Left out: `field_meta`, `fields.<name>`." })),
              shortened: Type.Optional(Type.Array(Type.String(), { description: "Text values cut short (ending in …)." })),
            }),
          ]),
          ...errors(400, 401, 404),
        },
        detail: doc(
          "Get a record",
          "`select` keeps only some fields; `projection=compact` leaves out fields and field_meta; `max_bytes` bounds the record's JSON: field_meta goes first, then the longest texts are shortened, then whole values are left out, and the answer lists what was cut.",
        ),
      },
    )
    .patch(
      "/collections/:id/records/:recordId",
      async ({ principal, workspace, params, body, headers, query, set }) =>
        withEtag(
          set,
          await updateRecord(
            core,
            principal,
            workspace,
            params.id,
            params.recordId,
            body as UpdateBody,
            expectedVersion({ body, query, headers }),
          ),
        ),
      {
        parse: "json",
        params: RecordParams,
        body: UpdateRecordDto,
        headers: IfMatch,
        query: VersionQuery,
        response: { 200: RecordView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc(
          "Update a record",
          `\`fields\` and \`field_meta\` merge (null removes); what the write touches is checked against the current schema and stages. A stage change is recorded in the history with who and when. ${VERSIONED}`,
        ),
      },
    )
    .delete(
      "/collections/:id/records/:recordId",
      ({ principal, workspace, params, query, headers }) =>
        deleteRecord(core, principal, workspace, params.id, params.recordId, query, expectedVersion({ query, headers })),
      {
        params: RecordParams,
        query: RecordDeleteQuery,
        headers: IfMatch,
        response: { 200: Removal, ...errors(400, 401, 403, 404, 409) },
        detail: doc(
          "Delete a record",
          "With its history and outcomes. `dry_run=true` only says what would be removed. `expected_version` or `If-Match` makes it conditional.",
        ),
      },
    );
}

/** A record's history and its outcomes. */
function recordHistoryRoutes(r: RecordScope, core: ServerDeps["core"]): void {
  r
    .get(
      "/collections/:id/records/:recordId/history",
      ({ workspace, params, query }) => recordHistory(core, workspace, params.id, params.recordId, query),
      {
        params: RecordParams,
        query: HistoryQuery,
        response: { 200: Type.Object({ history: Type.Array(RecordChangeView), has_more: Type.Boolean() }), ...errors(400, 401, 404) },
        detail: doc(
          "Record history",
          "Newest first: each change with its per-value before/after `diff`, `stage` when the status moved, `outcome` when one was recorded, and who (`actor_id`, `actor_kind`) and when. Next page: `before_version` = the last entry's version.",
        ),
      },
    )
    .post(
      "/collections/:id/records/:recordId/outcomes",
      async ({ principal, workspace, params, body, headers, query, set }) => {
        set.status = 201;
        const out = await recordOutcome(
          core,
          principal,
          workspace,
          params.id,
          params.recordId,
          body,
          expectedVersion({ body, query, headers }),
        );
        setEtag(set, out.record.version);
        return out;
      },
      {
        parse: "json",
        params: RecordParams,
        body: RecordOutcomeDto,
        headers: IfMatch,
        query: VersionQuery,
        response: {
          201: Type.Object({
            outcome: Type.Object({
              outcome: Type.String(),
              value: Type.Union([Type.Number(), Type.Null()]),
              note: Type.Union([Type.String(), Type.Null()]),
              occurred_at: Type.String(),
            }),
            record: RecordView,
          }),
          ...errors(400, 401, 403, 404, 409, 413),
        },
        detail: doc("Record an outcome", `${RecordOutcomeDto.description} ${VERSIONED}`),
      },
    );
}
