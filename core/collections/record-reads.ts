import type { CollectionDeps } from "./ports.ts";
import { parseBoundedInt } from "../kernel/paging.ts";
import type { QueryInt } from "../kernel/query-params.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { findCollection } from "./collections.ts";
import { resolveCriterion } from "./collection-criterion.ts";
import type { QueryRecordsDto } from "./dto.ts";
import { type ErrorDetail, validationFailed } from "../kernel/errors.ts";
import type { Collection } from "./model.ts";
import { type AggregateRecordsDto, compareGroups, compileAggregate, GROUPS_LIMIT } from "./record-aggregate.ts";
import { type DeclaredRollup, declaredRollups, rollupServing } from "./record-rollup.ts";
import { boundRecordView, parseFieldNames, projectFields } from "./record-projection.ts";
import { listFilter, parseLimit, parseRecordView, planQuery, type RecordListQuery } from "./record-query.ts";
import { findRecord } from "./records.ts";
import { toChangeView, toCollectionView, toRecordView } from "./views.ts";

/** Reading records: one, a page, a query, groups, a record's history, and the retrieve bundle. */

export const RECORD_HISTORY_LIMIT = { default: 50, max: 200 } as const;
/** The highest `before_version` a history page takes. */
export const MAX_HISTORY_VERSION = 1_000_000_000;

export interface RecordReadQuery {
  select?: string;
  projection?: string;
  max_bytes?: QueryInt;
}

/** GET …/records/{id}: `select` keeps some fields, `projection` picks the view, `max_bytes` bounds it. */
export async function getRecord(deps: CollectionDeps, ws: Workspace, cid: string, rid: string, q: RecordReadQuery = {}) {
  await findCollection(deps, ws, cid);
  const r = await findRecord(deps, ws, cid, rid);
  return boundRecordView(toRecordView(projectFields(r, parseFieldNames("select", q.select)), parseRecordView(q.projection)), q.max_bytes);
}

/** The list parameters as a filter, newest first, by cursor; the collection comes along. */
async function pageRecords(deps: CollectionDeps, ws: Workspace, cid: string, q: RecordListQuery & { query?: string }) {
  const c = await findCollection(deps, ws, cid);
  const filter = listFilter(q);
  const plan = planQuery(c, {
    ...(filter ? { filter } : {}),
    limit: parseLimit(q.limit),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
    ...(q.query !== undefined ? { query: q.query } : {}),
  });
  const view = parseRecordView(q.view);
  const page = await deps.stores.records.query(ws.id, c.id, plan.query);
  return { collection: c, records: page.items, view, nextCursor: plan.next(page.items, page.has_more) };
}

export async function listRecords(deps: CollectionDeps, ws: Workspace, cid: string, q: RecordListQuery) {
  const page = await pageRecords(deps, ws, cid, q);
  return { records: page.records.map((r) => toRecordView(r, page.view)), nextCursor: page.nextCursor };
}

export interface RecordRetrieveQuery extends RecordListQuery {
  query?: string;
  fields?: string;
}

/**
 * GET …/retrieve, for agents: a page of records (filtered like the list, `query` matching words
 * of their text, `fields` projecting) with the collection's criterion, so the reader knows how
 * far to rely on what the records say.
 */
export async function retrieveRecords(deps: CollectionDeps, ws: Workspace, cid: string, q: RecordRetrieveQuery) {
  const fields = parseFieldNames("fields", q.fields);
  const { fields: _f, ...listQuery } = q;
  const page = await pageRecords(deps, ws, cid, listQuery);
  const criterion = await resolveCriterion(deps, ws, page.collection);
  return {
    collection: toCollectionView(page.collection, "summary"),
    criterion: criterion.criterion,
    missing_criterion: criterion.missing,
    records: page.records.map((r) => toRecordView(projectFields(r, fields), page.view)),
    nextCursor: page.nextCursor,
  };
}

export async function queryRecords(deps: CollectionDeps, ws: Workspace, cid: string, dto: QueryRecordsDto) {
  const c = await findCollection(deps, ws, cid);
  const plan = planQuery(c, dto);
  const page = await deps.stores.records.query(ws.id, c.id, plan.query);
  return { records: page.items.map((r) => toRecordView(r, dto.view ?? "full")), nextCursor: plan.next(page.items, page.has_more) };
}

/**
 * An ad-hoc aggregate, or one a view declares (`view`, `aggregate`). Served from the store's rollup
 * when one holds the answer (a declared aggregate, or an ad-hoc one without a filter whose keys
 * and metrics a declared one covers), else by a scan; `source` says which.
 */
export async function aggregateRecords(deps: CollectionDeps, ws: Workspace, cid: string, dto: AggregateRecordsDto) {
  const c = await findCollection(deps, ws, cid);
  const rollups = declaredRollups(c);
  const { spec, names, metrics, rollup } = dto.view === undefined ? adHoc(c.record_schema, dto, rollups) : declared(dto, rollups);
  const fromRollup = rollup ? await deps.stores.records.aggregateRollup(ws.id, c.id, rollup, spec) : null;
  const groups = (fromRollup ?? (await deps.stores.records.aggregate(ws.id, c.id, spec))).sort(compareGroups);
  const truncated = groups.length > spec.maxGroups;
  return {
    groups: groups.slice(0, spec.maxGroups).map((g) => {
      const values: Record<string, unknown> = {};
      let m = 0;
      metrics.forEach((metric, i) => {
        values[names[i]!] = metric.fn === "count" ? g.count : g.values[m++] ?? null;
      });
      return { key: Object.fromEntries(spec.groupBy.map((o, i) => [o.path, g.key[i] ?? null])), count: g.count, values };
    }),
    truncated,
    source: fromRollup ? "rollup" as const : "records" as const,
  };
}

function adHoc(schema: Collection["record_schema"], dto: AggregateRecordsDto, rollups: DeclaredRollup[]) {
  if (dto.aggregate !== undefined) throw validationFailed("Invalid aggregate", [{ path: "/aggregate", message: "only with `view`" }]);
  const { spec, names } = compileAggregate(schema, dto);
  return { spec, names, metrics: dto.metrics ?? [], rollup: rollupServing(rollups, spec) };
}

function declared(dto: AggregateRecordsDto, rollups: DeclaredRollup[]) {
  const errors: ErrorDetail[] = [];
  for (const key of ["group_by", "metrics", "filter"] as const) {
    if (dto[key] !== undefined) errors.push({ path: `/${key}`, message: "not with `view`: the view's aggregate declares it" });
  }
  const ofView = rollups.filter((r) => r.view === dto.view);
  if (!ofView.length) errors.push({ path: "/view", message: `${dto.view}: not a view of this collection that declares aggregates` });
  const rollup = dto.aggregate === undefined ? (ofView.length === 1 ? ofView[0] : undefined) : ofView.find((r) => r.name === dto.aggregate);
  if (ofView.length && !rollup) {
    errors.push({
      path: "/aggregate",
      message: dto.aggregate === undefined
        ? `the view declares several aggregates: name one of ${ofView.map((r) => r.name).join(", ")}`
        : `${dto.aggregate}: not an aggregate of the view (${ofView.map((r) => r.name).join(", ")})`,
    });
  }
  if (errors.length || !rollup) throw validationFailed("Invalid aggregate", errors);
  const spec = { ...rollup.spec, maxGroups: dto.max_groups ?? GROUPS_LIMIT.default };
  return { spec, names: rollup.names, metrics: rollup.dto.metrics, rollup };
}

export interface RecordHistoryQuery {
  limit?: QueryInt;
  before_version?: QueryInt;
}

/** Newest first, a page of `limit`; the next page starts `before_version` the last entry's. */
export async function recordHistory(deps: CollectionDeps, ws: Workspace, cid: string, rid: string, q: RecordHistoryQuery) {
  const limit = parseBoundedInt("limit", q.limit, 1, RECORD_HISTORY_LIMIT.max) ?? RECORD_HISTORY_LIMIT.default;
  const before = parseBoundedInt("before_version", q.before_version, 1, MAX_HISTORY_VERSION);
  await findCollection(deps, ws, cid);
  await findRecord(deps, ws, cid, rid);
  // One entry past the page says whether another page follows.
  const entries = await deps.stores.records.history(ws.id, cid, rid, limit + 1, before);
  return { history: entries.slice(0, limit).map(toChangeView), has_more: entries.length > limit };
}
