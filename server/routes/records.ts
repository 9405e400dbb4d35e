import { Type } from "@sinclair/typebox";
import { findCollection } from "../../core/collections/collections.ts";
import { resolveCriterion } from "../../core/collections/context.ts";
import { CollectionView, CreateRecordDto, QueryRecordsDto, type QueryRecordsDto as QueryBody, RecordChangeView, RecordOutcomeDto, RecordView, UpdateRecordDto, type UpdateRecordDto as UpdateBody } from "../../core/collections/dto.ts";
import { AggregateRecordsDto, type AggregateRecordsDto as AggregateBody } from "../../core/collections/record-aggregate.ts";
import { parseRecordView } from "../../core/collections/record-query.ts";
import {
  aggregateRecords,
  createRecord,
  deleteRecord,
  getRecord,
  RECORD_HISTORY_LIMIT,
  listRecords,
  queryRecords,
  recordHistory,
  recordOutcome,
  updateRecord,
} from "../../core/collections/records.ts";
import { toChangeView, toCollectionView, toRecordView, trimToBytes } from "../../core/collections/views.ts";
import type { CollectionRecord } from "../../core/collections/model.ts";
import { validationFailed } from "../../core/kernel/errors.ts";
import { expectedVersion } from "../../core/kernel/expected-version.ts";
import { parseBoundedInt } from "../../core/kernel/paging.ts";
import type { ServerDeps } from "../deps.ts";
import { authenticated, errors } from "../http/schemas.ts";
import { CollectionParams, HistoryQuery, IfMatch, VersionQuery, RecordDeleteQuery, RecordGetQuery, RecordListQuery, RecordParams, RetrieveQuery } from "./collection-schemas.ts";
import { workspaceScope } from "./workspace-scope.ts";

const tags = ["records"];
const doc = (summary: string, description?: string) => ({ ...authenticated, tags, summary, ...(description ? { description } : {}) });
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: "The cursor of the next page; null on the last one." });
const RecordPage = Type.Object({ records: Type.Array(RecordView), nextCursor: NextCursor });
const Removal = Type.Object({ dry_run: Type.Boolean(), removed: Type.Object({ record_id: Type.String(), history_entries: Type.Integer(), outcomes: Type.Integer() }) });
const KEYSET =
  "Keyset paging: `limit` (1–200, default 50) and `cursor` (the previous page's `nextCursor`). A cursor only continues the listing it came from: with another filter, sort or query it is a 400. Pages neither repeat nor skip records that existed when paging began, whatever is inserted meanwhile.";
const VERSIONED = "Optimistic concurrency: `expected_version` or `If-Match`; a stale one is 409 `VERSION_CONFLICT` with `current_version`, and nothing is applied.";

/** `select=a,b` / `fields=a,b`: the names, each a plausible field name. */
function names(param: string, raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const out = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (out.length > 100 || out.some((n) => !/^[a-z][a-z0-9_]{0,63}$/.test(n))) {
    throw validationFailed(`Invalid ${param}: expected comma-separated field names`, [{ path: `query.${param}`, message: "expected comma-separated field names" }]);
  }
  return out;
}

function project(r: CollectionRecord, fields: string[] | null): CollectionRecord {
  if (!fields) return r;
  return { ...r, fields: Object.fromEntries(fields.filter((f) => f in r.fields).map((f) => [f, r.fields[f]])) };
}

export function recordRoutes(deps: ServerDeps) {
  const core = deps.core;
  const etag = <T extends { version: number }>(set: { headers: Record<string, unknown> }, v: T): T => {
    set.headers.etag = `"${v.version}"`;
    return v;
  };
  return workspaceScope(deps, "records")
    .post(
      "/collections/:id/records",
      async ({ principal, workspace, params, body, set }) => {
        set.status = 201;
        return etag(set, toRecordView(await createRecord(core, principal, workspace, params.id, body)));
      },
      {
        parse: "json",
        params: CollectionParams,
        body: CreateRecordDto,
        response: { 201: RecordView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc(
          "Add a record",
          "`fields` are checked against the record_schema and `status` against the stages (default the first); `entity_id` and entity-typed fields must name entities of the workspace. Every problem is one 400 `VALIDATION_FAILED` with a detail per field. Records of an archived collection are read-only (409).",
        ),
      },
    )
    .get(
      "/collections/:id/records",
      async ({ workspace, params, query }) => {
        const page = await listRecords(core, workspace, params.id, query);
        return { records: page.records.map((r) => toRecordView(r, page.view)), nextCursor: page.nextCursor };
      },
      {
        params: CollectionParams,
        query: RecordListQuery,
        response: { 200: RecordPage, ...errors(400, 401, 404) },
        detail: doc("List records", `Newest first, filtered by stage, entity, drift and last change. ${KEYSET}`),
      },
    )
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
            groups: Type.Array(Type.Object({ key: Type.Record(Type.String(), Type.Unknown()), count: Type.Integer(), values: Type.Record(Type.String(), Type.Unknown()) })),
            truncated: Type.Boolean({ description: "More groups exist than `max_groups`: the largest ones are shown." }),
          }),
          ...errors(400, 401, 404, 413),
        },
        detail: doc("Aggregate records", "Groups (up to three keys; records without a value group under null), largest first, at most `max_groups` (default 100, max 1,000). sum of no values is 0; avg, min, max of none are null."),
      },
    )
    .get(
      "/collections/:id/retrieve",
      async ({ workspace, params, query }) => {
        const fields = names("fields", query.fields);
        const { fields: _f, ...listQuery } = query;
        const page = await listRecords(core, workspace, params.id, listQuery);
        const criterion = await resolveCriterion(core, workspace, page.collection);
        return {
          collection: toCollectionView(page.collection, "summary"),
          criterion: criterion.criterion,
          missing_criterion: criterion.missing,
          records: page.records.map((r) => toRecordView(project(r, fields), page.view)),
          nextCursor: page.nextCursor,
        };
      },
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
        detail: doc("Retrieve records with their criterion", `For agents: the records (filtered like the list; \`query\` matches words in their text values; \`fields\` projects) and the Knowledge topics of the criterion with their trust verdicts. ${KEYSET}`),
      },
    )
    .get(
      "/collections/:id/records/:recordId",
      async ({ workspace, params, query, set }) => {
        const r = await getRecord(core, workspace, params.id, params.recordId);
        set.headers.etag = `"${r.version}"`;
        const view = toRecordView(project(r, names("select", query.select)), parseRecordView(query.projection));
        const max = parseBoundedInt("max_bytes", query.max_bytes, 256, 1_048_576);
        if (max === undefined) return { ...view, truncated: false };
        const t = trimToBytes(view, max);
        return { ...t.record, truncated: t.truncated, ...(t.truncated ? { omitted: t.omitted, shortened: t.shortened } : {}) };
      },
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
        detail: doc("Get a record", "`select` keeps only some fields; `projection=compact` leaves out fields and field_meta; `max_bytes` bounds the record's JSON: field_meta goes first, then the longest texts are shortened, then whole values are left out, and the answer lists what was cut."),
      },
    )
    .patch(
      "/collections/:id/records/:recordId",
      async ({ principal, workspace, params, body, headers, query, set }) =>
        etag(set, toRecordView(await updateRecord(core, principal, workspace, params.id, params.recordId, body as UpdateBody, expectedVersion(body.expected_version, headers["if-match"], query.expected_version)))),
      {
        parse: "json",
        params: RecordParams,
        body: UpdateRecordDto,
        headers: IfMatch,
        query: VersionQuery,
        response: { 200: RecordView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc("Update a record", `\`fields\` and \`field_meta\` merge (null removes); what the write touches is checked against the current schema and stages. A stage change is recorded in the history with who and when. ${VERSIONED}`),
      },
    )
    .delete(
      "/collections/:id/records/:recordId",
      ({ principal, workspace, params, query, headers }) =>
        deleteRecord(core, principal, workspace, params.id, params.recordId, { dryRun: query.dry_run === true, expected: expectedVersion(undefined, headers["if-match"], query.expected_version) }),
      {
        params: RecordParams,
        query: RecordDeleteQuery,
        headers: IfMatch,
        response: { 200: Removal, ...errors(400, 401, 403, 404, 409) },
        detail: doc("Delete a record", "With its history and outcomes. `dry_run=true` only says what would be removed. `expected_version` or `If-Match` makes it conditional."),
      },
    )
    .get(
      "/collections/:id/records/:recordId/history",
      async ({ workspace, params, query }) => {
        const limit = parseBoundedInt("limit", query.limit, 1, RECORD_HISTORY_LIMIT.max) ?? RECORD_HISTORY_LIMIT.default;
        const before = parseBoundedInt("before_version", query.before_version, 1, 1_000_000_000);
        const entries = await recordHistory(core, workspace, params.id, params.recordId, limit + 1, before);
        return { history: entries.slice(0, limit).map(toChangeView), has_more: entries.length > limit };
      },
      {
        params: RecordParams,
        query: HistoryQuery,
        response: { 200: Type.Object({ history: Type.Array(RecordChangeView), has_more: Type.Boolean() }), ...errors(400, 401, 404) },
        detail: doc("Record history", "Newest first: each change with its per-value before/after `diff`, `stage` when the status moved, `outcome` when one was recorded, and who (`actor_id`, `actor_kind`) and when. Next page: `before_version` = the last entry's version."),
      },
    )
    .post(
      "/collections/:id/records/:recordId/outcomes",
      async ({ principal, workspace, params, body, headers, query, set }) => {
        set.status = 201;
        const out = await recordOutcome(core, principal, workspace, params.id, params.recordId, body, expectedVersion(body.expected_version, headers["if-match"], query.expected_version));
        set.headers.etag = `"${out.record.version}"`;
        return { outcome: out.outcome, record: toRecordView(out.record) };
      },
      {
        parse: "json",
        params: RecordParams,
        body: RecordOutcomeDto,
        headers: IfMatch,
        query: VersionQuery,
        response: {
          201: Type.Object({
            outcome: Type.Object({ outcome: Type.String(), value: Type.Union([Type.Number(), Type.Null()]), note: Type.Union([Type.String(), Type.Null()]), occurred_at: Type.String() }),
            record: RecordView,
          }),
          ...errors(400, 401, 403, 404, 409, 413),
        },
        detail: doc("Record an outcome", `${RecordOutcomeDto.description} ${VERSIONED}`),
      },
    );
}
