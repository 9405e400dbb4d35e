import { isUuid } from "../kernel/ids.ts";
import { declaredCell, openCell, uncellText } from "./csv-cells.ts";
import { admitsField, FIELD_NAME_PATTERN, type RecordSchema } from "./record-schema.ts";

/**
 * What a row of an imported file says (docs/decisions/063-records-csv-and-ndjson.md): a CSV row
 * read through its header, or an NDJSON line, as the record it asks for, with what is wrong with
 * it. Pure: the import use case (record-import.ts) checks rows against the store.
 */

/** One problem of a row: its line in the file, its column (CSV header name or NDJSON key; null: the whole row). */
export interface RowError {
  line: number;
  column: string | null;
  code: RowErrorCode;
  message: string;
}

export type RowErrorCode =
  | "MALFORMED_ROW"
  | "UNKNOWN_COLUMN"
  | "DUPLICATE_COLUMN"
  | "UNKNOWN_FIELD"
  | "INVALID_VALUE"
  | "REQUIRED"
  | "INVALID_STATUS"
  | "UNKNOWN_ENTITY"
  | "INVALID_ID"
  | "DUPLICATE_ID"
  | "VERSION_CONFLICT"
  | "TOO_LARGE";

/** A row of the file as the body reader hands it over: CSV cells, an NDJSON line's value, or why the line could not be read. */
export type ImportRow =
  | { line: number; cells: string[] }
  | { line: number; value: unknown }
  | { line: number; problem: string };

/** The record a row asks for. */
export interface RowIntent {
  line: number;
  /** The record it changes (null: a new record). */
  id: string | null;
  /** null: not given (a create takes the first stage, an update keeps the record's). */
  status: string | null;
  /** undefined: not given; null: no entity. */
  entityId: string | null | undefined;
  /** The write applies only to the record at this version (`version`/`expected_version`), or at this `updated_at`. */
  version: number | null;
  updatedAt: string | null;
  /** Values by field name; null: the row gives it no value (an update removes it). */
  fields: Record<string, unknown>;
  /** The header name of each field the row carries, for error columns. */
  columnOf: (field: string) => string;
  problems: RowError[];
  /** Every cell empty: skipped. */
  empty: boolean;
}

/** Columns (CSV) and keys (NDJSON) that are the record's own, not its fields. */
export const IMPORT_RECORD_COLUMNS = ["id", "status", "entity_id", "updated_at", "version", "expected_version"] as const;
type RecordColumn = (typeof IMPORT_RECORD_COLUMNS)[number];
const isRecordColumn = (name: string): name is RecordColumn => (IMPORT_RECORD_COLUMNS as readonly string[]).includes(name);
const FIELD_NAME = new RegExp(FIELD_NAME_PATTERN);

/**
 * The header name of a field: its name, or `fields.<name>` when a record column has that name
 * (a field called `status` would otherwise be read as the stage).
 */
export function fieldHeader(name: string): string {
  return isRecordColumn(name) ? `fields.${name}` : name;
}

type Column = { kind: RecordColumn } | { kind: "field"; name: string } | { kind: "unnamed" };

export interface CsvColumns {
  columns: Column[];
  header: string[];
  problems: RowError[];
}

/** The header row read as columns: record columns, field names (`fields.<name>` too), every problem at once. */
export function csvColumns(schema: RecordSchema, header: readonly string[], line: number): CsvColumns {
  const problems: RowError[] = [];
  const seen = new Set<string>();
  const names = header.map((h) => h.trim());
  const columns = names.map((name, i): Column => {
    const at = (code: RowErrorCode, message: string) => problems.push({ line, column: name || `#${i + 1}`, code, message });
    if (name === "") return { kind: "unnamed" };
    const key = isRecordColumn(name) ? name : name.startsWith("fields.") ? name.slice(7) : name;
    // `version` and `expected_version` are one column; a field and a record column of one name are two.
    const slot = isRecordColumn(name) ? `column:${name === "expected_version" ? "version" : name}` : `field:${key}`;
    if (seen.has(slot)) at("DUPLICATE_COLUMN", "appears twice in the header");
    seen.add(slot);
    if (isRecordColumn(name)) return { kind: name === "expected_version" ? "version" : name };
    if (!FIELD_NAME.test(key)) {
      at("UNKNOWN_COLUMN", `is neither a record column (${IMPORT_RECORD_COLUMNS.join(", ")}) nor a field name (${FIELD_NAME_PATTERN})`);
    } else if (!admitsField(schema, key)) {
      at("UNKNOWN_FIELD", "is not a field of this collection's record_schema");
    }
    return { kind: "field", name: key };
  });
  return { columns, header: names, problems };
}

function newIntent(line: number, columnOf: (f: string) => string): RowIntent {
  return {
    line,
    id: null,
    status: null,
    entityId: undefined,
    version: null,
    updatedAt: null,
    fields: {},
    columnOf,
    problems: [],
    empty: false,
  };
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A record column's value onto the intent (text from a cell or a JSON value from a line), or a problem. */
function recordValue(intent: RowIntent, column: RecordColumn | "version", raw: unknown, header: string): void {
  const bad = (message: string) => intent.problems.push({ line: intent.line, column: header, code: "INVALID_VALUE", message });
  switch (column) {
    case "id":
      if (typeof raw === "string" && isUuid(raw)) intent.id = raw;
      else intent.problems.push({ line: intent.line, column: header, code: "INVALID_ID", message: "must be a record id (a UUID)" });
      return;
    case "status":
      if (typeof raw === "string") intent.status = raw;
      else bad("must be a stage name");
      return;
    case "entity_id":
      if (raw === null || (typeof raw === "string" && isUuid(raw))) intent.entityId = raw;
      else intent.problems.push({ line: intent.line, column: header, code: "UNKNOWN_ENTITY", message: "must be an entity id" });
      return;
    case "updated_at":
      if (typeof raw === "string" && TIMESTAMP.test(raw) && !Number.isNaN(Date.parse(raw))) intent.updatedAt = raw;
      else bad("must be an RFC 3339 timestamp");
      return;
    case "version":
    case "expected_version": {
      const n = typeof raw === "string" && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
      if (typeof n === "number" && Number.isSafeInteger(n) && n >= 1) intent.version = n;
      else bad("must be a version (a whole number from 1)");
    }
  }
}

/**
 * A CSV row through its header: cells as text (the injection prefix taken off), declared fields
 * converted by type, undeclared ones kept as text (or inferred with `infer`), an empty cell no
 * value. The header's own problems are reported once, on its line, not here.
 */
export function csvIntent(schema: RecordSchema, cols: CsvColumns, line: number, cells: readonly string[], infer: boolean): RowIntent {
  const columnOf = (field: string) => {
    const i = cols.columns.findIndex((c) => c.kind === "field" && c.name === field);
    return i >= 0 ? cols.header[i]! : fieldHeader(field);
  };
  const intent = newIntent(line, columnOf);
  // A blank line reads as one empty cell.
  if (cells.every((c) => c === "") && (cells.length === cols.columns.length || cells.length === 1)) {
    intent.empty = true;
    return intent;
  }
  if (cells.length !== cols.columns.length) {
    intent.problems.push({
      line,
      column: null,
      code: "MALFORMED_ROW",
      message: `has ${cells.length} cells where the header has ${cols.columns.length}`,
    });
    return intent;
  }
  cells.forEach((raw, i) => {
    const col = cols.columns[i]!;
    const header = cols.header[i]!;
    const text = uncellText(raw);
    if (col.kind === "unnamed") {
      if (text !== "") {
        intent.problems.push({ line, column: `#${i + 1}`, code: "UNKNOWN_COLUMN", message: "holds a value but its column has no name" });
      }
      return;
    }
    if (col.kind !== "field") {
      if (text === "") {
        if (col.kind === "entity_id") intent.entityId = null;
        return;
      }
      recordValue(intent, col.kind, text, header);
      return;
    }
    if (!admitsField(schema, col.name)) return;
    const def = Object.hasOwn(schema.fields, col.name) ? schema.fields[col.name] : undefined;
    const cell = def ? declaredCell(def, text) : openCell(text, infer);
    if ("problem" in cell) intent.problems.push({ line, column: header, code: "INVALID_VALUE", message: cell.problem });
    else intent.fields[col.name] = cell.value === undefined ? null : cell.value;
  });
  return intent;
}

/**
 * An NDJSON line: an object of `id`, `status`, `entity_id`, `fields` (values as JSON, null: none),
 * and the concurrency keys `version` (or `expected_version`) and `updated_at`. Unknown keys are a
 * problem, as in every body of the API. An exported line reads back as itself.
 */
export function ndjsonIntent(schema: RecordSchema, line: number, value: unknown): RowIntent {
  const intent = newIntent(line, fieldHeader);
  const problem = (column: string | null, code: RowErrorCode, message: string) => intent.problems.push({ line, column, code, message });
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problem(null, "MALFORMED_ROW", "must be a JSON object (one record per line)");
    return intent;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === "fields") {
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        problem("fields", "INVALID_VALUE", "must be an object of field values");
        continue;
      }
      for (const [name, fv] of Object.entries(v)) {
        if (!admitsField(schema, name)) problem(`fields.${name}`, "UNKNOWN_FIELD", "is not a field of this collection's record_schema");
        else intent.fields[name] = fv;
      }
    } else if (isRecordColumn(key)) {
      if (v === null && key !== "entity_id") continue;
      recordValue(intent, key, v, key);
    } else {
      problem(key, "UNKNOWN_COLUMN", `is not a key of an imported record (id, status, entity_id, fields, version, updated_at)`);
    }
  }
  intent.columnOf = (f) => `fields.${f}`;
  return intent;
}
