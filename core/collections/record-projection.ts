import { parseBoundedInt } from "../kernel/paging.ts";
import { badQuery, type QueryInt } from "../kernel/query-params.ts";
import type { RecordView } from "./dto.ts";
import type { CollectionRecord } from "./model.ts";
import { FIELD_NAME_PATTERN } from "./record-schema.ts";
import { trimToBytes } from "./views.ts";

/**
 * What a reader asks to see of a record: some of its fields (`select`, `fields`) and at most so
 * many bytes of JSON (`max_bytes`).
 */
export const MAX_SELECTED_FIELDS = 100;
export const MAX_BYTES = { min: 256, max: 1_048_576 } as const;
const FIELD_NAME = new RegExp(FIELD_NAME_PATTERN);

/** A comma-separated list of field names, or null when none was given (all fields). */
export function parseFieldNames(param: string, raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const names = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length > MAX_SELECTED_FIELDS || names.some((n) => !FIELD_NAME.test(n))) {
    throw badQuery(param, "expected comma-separated field names");
  }
  return names;
}

/** The record with only the named fields (the ones it holds); all of them for null. */
export function projectFields(r: CollectionRecord, names: string[] | null): CollectionRecord {
  if (!names) return r;
  return { ...r, fields: Object.fromEntries(names.filter((f) => f in r.fields).map((f) => [f, r.fields[f]])) };
}

export type BoundedRecordView = RecordView & { truncated: boolean; omitted?: string[]; shortened?: string[] };

/** The view within `max_bytes` when one is given (trimToBytes), saying whether and what it cut. */
export function boundRecordView(view: RecordView, maxBytes: QueryInt | undefined): BoundedRecordView {
  const max = parseBoundedInt("max_bytes", maxBytes, MAX_BYTES.min, MAX_BYTES.max);
  if (max === undefined) return { ...view, truncated: false };
  const t = trimToBytes(view, max);
  return { ...t.record, truncated: t.truncated, ...(t.truncated ? { omitted: t.omitted, shortened: t.shortened } : {}) };
}
