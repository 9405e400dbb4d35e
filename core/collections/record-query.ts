import { decodeCursor, encodeCursor } from "../kernel/keyset-cursor.ts";
import { isUuid } from "../kernel/ids.ts";
import { parseBoundedInt } from "../kernel/paging.ts";
import { badQuery, parseBool, parseEnum, parseTimestamp, type QueryBool, type QueryInt } from "../kernel/query-params.ts";
import { RECORD_VIEWS, RECORDS_LIMIT, type RecordViewName } from "./dto.ts";
import type { Collection, CollectionRecord } from "./model.ts";
import type { RecordQuery } from "./ports.ts";
import { compileFilter, type FilterCondition, type FilterNode } from "./record-filter.ts";
import { checkedPosition, compileSort, positionOf, type RecordSort } from "./record-sort.ts";
import { queryWords } from "./record-text.ts";

/**
 * From what a caller asks (query strings of GET …/records and …/retrieve, or a QueryRecordsDto)
 * to a store query, and the cursor of the next page. A cursor is bound to its collection,
 * filter, sort and search words: replayed with any other, it is a 400.
 */
export interface RecordListQuery {
  status?: string;
  entity_id?: string;
  drifted?: QueryBool;
  updated_after?: string;
  view?: string;
  limit?: QueryInt;
  cursor?: string;
}

export function parseRecordView(raw: string | undefined): RecordViewName {
  return parseEnum("view", raw, RECORD_VIEWS) ?? "full";
}

/** The filter tree the list parameters stand for (their conjunction), or undefined for none. */
export function listFilter(q: RecordListQuery): FilterNode | undefined {
  const and: FilterCondition[] = [];
  if (q.status !== undefined) and.push({ field: "status", op: "eq", value: q.status });
  if (q.entity_id !== undefined) {
    if (!isUuid(q.entity_id)) throw badQuery("entity_id", "expected an entity id");
    and.push({ field: "entity_id", op: "eq", value: q.entity_id });
  }
  const drifted = parseBool("drifted", q.drifted);
  if (drifted !== undefined) and.push({ field: "drifted", op: "eq", value: drifted });
  const updatedAfter = parseTimestamp("updated_after", q.updated_after);
  if (updatedAfter !== undefined) and.push({ field: "updated_at", op: "gt", value: updatedAfter });
  return and.length === 0 ? undefined : and.length === 1 ? and[0] : { and };
}

export interface PlannedQuery {
  query: RecordQuery;
  /** The cursor of the page after `items`, when `has_more`. */
  next(items: CollectionRecord[], hasMore: boolean): string | null;
}

export function planQuery(
  c: Collection,
  spec: { filter?: FilterNode; sort?: RecordSort; limit?: number; cursor?: string; query?: string },
): PlannedQuery {
  const filter = spec.filter ? compileFilter(c.record_schema, spec.filter) : null;
  const sort = compileSort(c.record_schema, spec.sort);
  const words = spec.query !== undefined ? queryWords(spec.query) : [];
  const bound = { c: c.id, f: spec.filter ?? null, s: spec.sort ?? null, w: words };
  const after = spec.cursor === undefined ? null : checkedPosition(decodeCursor(spec.cursor, bound), sort);
  const limit = spec.limit ?? RECORDS_LIMIT.default;
  return {
    query: { filter, sort, after, limit, ...(words.length ? { words } : {}) },
    next: (items, hasMore) => (hasMore && items.length ? encodeCursor(bound, positionOf(items.at(-1)!, sort)) : null),
  };
}

export function parseLimit(raw: QueryInt | undefined): number {
  return parseBoundedInt("limit", raw, 1, RECORDS_LIMIT.max) ?? RECORDS_LIMIT.default;
}
