import { type FieldDef, MAX_FIELDS, MAX_LIST_ITEMS, type RecordSchema, type ScalarFieldDef } from "./record-schema.ts";
import { valueFits } from "./record-validation.ts";

/**
 * The shape of what an open collection's records hold: per undeclared field, the JSON types
 * seen with counts, and a declaration every seen value satisfies (the doctor suggests the
 * record_schema of those declarations). Pure: the doctor feeds it the records it scans.
 */
export const JSON_TYPES = ["string", "number", "boolean", "array", "object"] as const;
export type JsonType = (typeof JSON_TYPES)[number];

export interface FieldTally {
  /** Records holding the field. */
  records: number;
  types: Partial<Record<JsonType, number>>;
  /** Each scalar declaration still possible, as judged value by value (a list's items, for arrays). */
  scalar: Candidates;
  items: Candidates;
  maxItems: number;
}

/** Declarations every value seen so far fits, narrowed as values arrive. */
interface Candidates {
  seen: number;
  fits: Set<ScalarFieldDef["type"]>;
}

/** Distinct undeclared names tallied per collection; more are counted, not described. */
export const MAX_SHAPE_FIELDS = 200;

export interface ShapeTally {
  fields: Map<string, FieldTally>;
  /** Names seen beyond `MAX_SHAPE_FIELDS`. */
  untallied: Set<string>;
}

const ALL_SCALARS: ScalarFieldDef["type"][] = ["date", "datetime", "email", "url", "string", "integer", "number", "boolean"];
const jsonType = (v: unknown): JsonType =>
  Array.isArray(v) ? "array" : v !== null && typeof v === "object" ? "object" : (typeof v as "string" | "number" | "boolean");

/** The scalar declarations `v` satisfies, by the record validation itself. */
const fitsOf = (v: unknown) => new Set(ALL_SCALARS.filter((type) => valueFits({ type } as ScalarFieldDef, v)));

function narrow(c: Candidates, v: unknown): void {
  const fits = fitsOf(v);
  c.fits = c.seen === 0 ? fits : new Set([...c.fits].filter((t) => fits.has(t)));
  c.seen++;
}

export function newShapeTally(): ShapeTally {
  return { fields: new Map(), untallied: new Set() };
}

/** Counts one record's undeclared fields (`schema` says which are declared). */
export function tallyRecord(tally: ShapeTally, schema: RecordSchema, fields: Record<string, unknown>): void {
  for (const [name, v] of Object.entries(fields)) {
    if (Object.hasOwn(schema.fields, name) || v === null || v === undefined) continue;
    let t = tally.fields.get(name);
    if (!t && tally.fields.size >= MAX_SHAPE_FIELDS) {
      if (tally.untallied.size < 10_000) tally.untallied.add(name);
      continue;
    }
    if (!t) {
      tally.fields.set(
        name,
        t = { records: 0, types: {}, scalar: { seen: 0, fits: new Set() }, items: { seen: 0, fits: new Set(ALL_SCALARS) }, maxItems: 0 },
      );
    }
    t.records++;
    const type = jsonType(v);
    t.types[type] = (t.types[type] ?? 0) + 1;
    if (Array.isArray(v)) {
      t.maxItems = Math.max(t.maxItems, v.length);
      for (const x of v) narrow(t.items, x);
    } else narrow(t.scalar, v);
  }
}

/**
 * The declaration to suggest for a tallied field, or null when its values admit none (mixed
 * types, objects, lists of mixed items). Among several fits the most specific wins; entity ids
 * are never guessed (a uuid-shaped text need not name an entity).
 */
export function suggestField(t: FieldTally): FieldDef | null {
  const kinds = Object.keys(t.types) as JsonType[];
  if (kinds.length !== 1 || kinds[0] === "object") return null;
  const pick = (c: Candidates): ScalarFieldDef | null => {
    for (const type of ["boolean", "integer", "number", "date", "datetime", "email", "url", "string"] as const) {
      if (c.fits.has(type)) return { type } as ScalarFieldDef;
    }
    return null;
  };
  if (kinds[0] !== "array") return t.scalar.seen > 0 ? pick(t.scalar) : null;
  if (t.maxItems > MAX_LIST_ITEMS) return null;
  // A list of nothing but empty lists: text items are the loosest guess.
  const items = t.items.seen === 0 ? ({ type: "string" } as ScalarFieldDef) : pick(t.items);
  return items ? { type: "list", items } : null;
}

export interface InferredShape {
  fields: { name: string; records: number; types: Record<string, number>; suggested: FieldDef | null }[];
  /**
   * A record_schema to PATCH as is: the declared fields and the suggestions, the stages, and
   * `additional_fields: true`, so that applying it types what was seen without refusing fields
   * no record has yet (drop it to make the collection strict).
   */
  suggested_record_schema: RecordSchema;
  /** Undeclared names seen beyond the first `MAX_SHAPE_FIELDS` (left undeclared by the suggestion). */
  untallied_fields: number;
}

/** The report of a tally: fields by name, and the schema that declares what can be declared. */
export function inferShape(tally: ShapeTally, schema: RecordSchema): InferredShape {
  const fields = [...tally.fields.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, t]) => ({ name, records: t.records, types: { ...t.types } as Record<string, number>, suggested: suggestField(t) }));
  const declared: Record<string, FieldDef> = { ...schema.fields };
  for (const f of fields) if (f.suggested && Object.keys(declared).length < MAX_FIELDS) declared[f.name] = f.suggested;
  const suggested: RecordSchema = { fields: declared, stages: [...schema.stages] };
  if (Object.keys(declared).length > 0) suggested.additional_fields = true;
  return { fields, suggested_record_schema: suggested, untallied_fields: tally.untallied.size };
}
