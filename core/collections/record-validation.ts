import type { ErrorDetail } from "../kernel/errors.ts";
import { isUuid } from "../kernel/ids.ts";
import { openValueProblem } from "./open-value.ts";
import { admitsField, type FieldDef, MAX_LIST_ITEMS, MAX_STRING_LENGTH, type RecordSchema, type ScalarFieldDef } from "./record-schema.ts";

/** A record's `fields`, serialised, may not exceed this many bytes. */
export const MAX_RECORD_BYTES = 256 * 1024;

export type RecordFields = Record<string, unknown>;

export interface ValidatedFields {
  /** The fields to store: nulls dropped, datetimes normalised to UTC. */
  fields: RecordFields;
  /** Every problem found, none skipped; empty when valid. */
  errors: ErrorDetail[];
  /** Entity ids referenced by entity-typed fields, with the kind each must have (null: any). */
  entityRefs: { id: string; kind: string | null; path: string }[];
}

/**
 * Checks a record's fields against its collection's schema, all at once: every error is
 * reported, under `/fields/<name>` (and `/fields/<name>/<index>` inside lists). Undeclared names
 * are errors, unless the schema accepts them (open, or `additional_fields`): then any JSON value
 * within bounds (open-value.ts). `null` means "no value" (and in a patch, "remove it"); a
 * required field must end up with a value.
 */
export function validateRecordFields(schema: RecordSchema, fields: RecordFields): ValidatedFields {
  const out: ValidatedFields = { fields: {}, errors: [], entityRefs: [] };
  for (const [name, value] of Object.entries(fields)) {
    const def = Object.hasOwn(schema.fields, name) ? schema.fields[name] : undefined;
    const path = `/fields/${name}`;
    if (!def) {
      if (!admitsField(schema, name)) {
        out.errors.push({ path, message: "is not a field of this collection's record_schema" });
        continue;
      }
      if (value === null || value === undefined) continue;
      const problem = openValueProblem(value, path);
      if (problem) out.errors.push(problem);
      else out.fields[name] = value;
      continue;
    }
    if (value === null || value === undefined) continue;
    const checked = checkValue(def, value, path, out);
    if (checked !== undefined) out.fields[name] = checked;
  }
  for (const [name, def] of Object.entries(schema.fields)) {
    if (def.required && (fields[name] === null || fields[name] === undefined)) {
      out.errors.push({ path: `/fields/${name}`, message: "is required" });
    }
  }
  if (out.errors.length === 0 && overRecordBytes(JSON.stringify(out.fields))) {
    out.errors.push({ path: "/fields", message: `is larger than ${MAX_RECORD_BYTES} bytes` });
  }
  return out;
}

/** `patch` over `current` (RFC 7396 at the first level: null removes), then validated whole. */
export function patchRecordFields(schema: RecordSchema, current: RecordFields, patch: RecordFields): ValidatedFields {
  const next: RecordFields = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  // Names the patch removes are fine even if unknown now (a schema edit may have dropped them).
  const result = validateRecordFields(schema, next);
  result.errors = result.errors.filter((e) => !(e.message.startsWith("is not a field") && !Object.hasOwn(patch, e.path.slice(8))));
  if (result.errors.length === 0) {
    // A field the schema dropped, untouched by the patch, is kept as it was (doctor reports it).
    for (const [k, v] of Object.entries(next)) if (!Object.hasOwn(schema.fields, k)) result.fields[k] = v;
  }
  return result;
}

/** Whether a value passes a scalar declaration (what the doctor's shape inference proposes with). */
export function valueFits(def: ScalarFieldDef, v: unknown): boolean {
  return checkScalar(def, v, "", { fields: {}, errors: [], entityRefs: [] }) !== undefined;
}

export function stageProblem(schema: RecordSchema, status: string): ErrorDetail | null {
  return schema.stages.includes(status)
    ? null
    : { path: "/status", message: `must be one of the collection's stages: ${schema.stages.join(", ")}` };
}

function checkValue(def: FieldDef, value: unknown, path: string, out: ValidatedFields): unknown {
  if (def.type !== "list") return checkScalar(def, value, path, out);
  if (!Array.isArray(value)) return fail(out, path, "must be a list");
  const max = def.max_items ?? MAX_LIST_ITEMS;
  if (value.length > max) return fail(out, path, `must have at most ${max} items`);
  if (def.min_items !== undefined && value.length < def.min_items) return fail(out, path, `must have at least ${def.min_items} items`);
  const items: unknown[] = [];
  value.forEach((v, i) => {
    if (v === null) return void fail(out, `${path}/${i}`, "must not be null");
    const c = checkScalar(def.items, v, `${path}/${i}`, out);
    if (c !== undefined) items.push(c);
  });
  return items.length === value.length ? items : undefined;
}

function fail(out: ValidatedFields, path: string, message: string): undefined {
  out.errors.push({ path, message });
  return undefined;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

function validDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
}

function checkScalar(def: ScalarFieldDef, v: unknown, path: string, out: ValidatedFields): unknown {
  switch (def.type) {
    case "string": {
      if (typeof v !== "string") return fail(out, path, "must be a string");
      const max = def.max_length ?? MAX_STRING_LENGTH;
      if (v.length > max) return fail(out, path, `must be at most ${max} characters`);
      if (def.min_length !== undefined && v.length < def.min_length) {
        return fail(out, path, `must be at least ${def.min_length} characters`);
      }
      if (def.pattern !== undefined && !new RegExp(`^(?:${def.pattern})$`, "u").test(v)) {
        return fail(out, path, `must match ${def.pattern}`);
      }
      return v;
    }
    case "number":
    case "integer": {
      if (typeof v !== "number" || !Number.isFinite(v)) return fail(out, path, "must be a number");
      if (def.type === "integer" && !Number.isSafeInteger(v)) return fail(out, path, "must be an integer");
      if (def.min !== undefined && v < def.min) return fail(out, path, `must be at least ${def.min}`);
      if (def.max !== undefined && v > def.max) return fail(out, path, `must be at most ${def.max}`);
      return v;
    }
    case "boolean":
      return typeof v === "boolean" ? v : fail(out, path, "must be true or false");
    case "date": {
      if (typeof v !== "string" || !validDay(v)) return fail(out, path, "must be a date (YYYY-MM-DD)");
      if (def.min !== undefined && v < def.min) return fail(out, path, `must be on or after ${def.min}`);
      if (def.max !== undefined && v > def.max) return fail(out, path, `must be on or before ${def.max}`);
      return v;
    }
    case "datetime": {
      const ms = typeof v === "string" && DATETIME.test(v) ? Date.parse(v) : NaN;
      if (Number.isNaN(ms)) return fail(out, path, "must be an RFC 3339 timestamp");
      if (def.min !== undefined && ms < Date.parse(def.min)) return fail(out, path, `must be at or after ${def.min}`);
      if (def.max !== undefined && ms > Date.parse(def.max)) return fail(out, path, `must be at or before ${def.max}`);
      return new Date(ms).toISOString();
    }
    case "enum":
      return typeof v === "string" && def.values.includes(v) ? v : fail(out, path, `must be one of ${def.values.join(", ")}`);
    case "url": {
      const max = def.max_length ?? 2048;
      if (typeof v !== "string" || v.length > max || !/^https?:\/\//i.test(v) || !URL.canParse(v)) {
        return fail(out, path, "must be an absolute http(s) URL");
      }
      return v;
    }
    case "email":
      return typeof v === "string" && v.length <= 254 && EMAIL.test(v) ? v : fail(out, path, "must be an e-mail address");
    case "entity":
      if (typeof v !== "string" || !isUuid(v)) return fail(out, path, "must be an entity id");
      out.entityRefs.push({ id: v, kind: def.entity_kind ?? null, path });
      return v;
  }
}

/**
 * Whether `text` is more than MAX_RECORD_BYTES in UTF-8, encoding it only when the answer is not
 * plain: a UTF-16 unit is at most 3 bytes, so text of at most a third of the bound fits whatever it
 * holds (every row of a file import comes through here, most a few hundred bytes).
 */
function overRecordBytes(text: string): boolean {
  if (text.length * 3 <= MAX_RECORD_BYTES) return false;
  return new TextEncoder().encode(text).length > MAX_RECORD_BYTES;
}
