import { type Static, type TSchema, Type } from "@sinclair/typebox";
import type { ErrorDetail } from "../kernel/errors.ts";
import { type Archetype, DEFAULT_STAGES } from "./archetype.ts";

/**
 * A collection's record schema: its typed fields and its stages. The one definition of what a
 * record may hold; `validateRecord` (record-validation.ts) checks records against it, the query
 * compiler (record-filter.ts) types filters with it, and the OpenAPI document shows it.
 */
export const FIELD_NAME_PATTERN = "^[a-z][a-z0-9_]{0,63}$";
export const STAGE_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";
export const MAX_FIELDS = 100;
export const MAX_STAGES = 50;
export const MAX_ENUM_VALUES = 200;
/** Strings are bounded even when the schema names no bound, so every record stays small. */
export const MAX_STRING_LENGTH = 10_000;
export const MAX_LIST_ITEMS = 200;
/** Arrays and objects inside a value of an undeclared field nest at most this deep. */
export const MAX_VALUE_DEPTH = 16;
/** A pattern runs on every write: short patterns over bounded strings only. */
export const MAX_PATTERN_LENGTH = 200;

const strict = { additionalProperties: false } as const;
const common = {
  required: Type.Optional(Type.Boolean({ description: "A record must carry the field (not null). Default false." })),
  description: Type.Optional(Type.String({ maxLength: 500 })),
};
const field = <T extends string, P extends Record<string, TSchema>>(type: T, props: P, description: string) =>
  Type.Object({ type: Type.Literal(type), ...common, ...props }, { ...strict, description });

const lengthBounds = {
  min_length: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_STRING_LENGTH })),
  max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_STRING_LENGTH })),
};
const numberBounds = { min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) };
const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD" });

export const StringField = field(
  "string",
  {
    ...lengthBounds,
    pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_PATTERN_LENGTH,
        description: "ECMAScript regular expression the whole value must match.",
      }),
    ),
  },
  `Text, at most max_length (default ${MAX_STRING_LENGTH}) characters.`,
);
export const NumberField = field("number", numberBounds, "A JSON number, within min and max when given.");
export const IntegerField = field("integer", numberBounds, "A whole JSON number, within min and max when given.");
export const BooleanField = field("boolean", {}, "true or false.");
export const DateField = field("date", { min: Type.Optional(Day), max: Type.Optional(Day) }, "A calendar date, YYYY-MM-DD.");
export const DateTimeField = field(
  "datetime",
  { min: Type.Optional(Type.String({ format: "date-time" })), max: Type.Optional(Type.String({ format: "date-time" })) },
  "An RFC 3339 timestamp; stored normalised to UTC (…Z).",
);
export const EnumField = field(
  "enum",
  { values: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_ENUM_VALUES, uniqueItems: true }) },
  "One of `values`.",
);
export const UrlField = field(
  "url",
  { max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: 2048 })) },
  "An absolute http(s) URL.",
);
export const EmailField = field("email", {}, "An e-mail address.");
export const EntityField = field(
  "entity",
  { entity_kind: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "The entity's kind must be this one." })) },
  "The id of an entity of the workspace (POST /entities).",
);
const scalarFields = [
  StringField,
  NumberField,
  IntegerField,
  BooleanField,
  DateField,
  DateTimeField,
  EnumField,
  UrlField,
  EmailField,
  EntityField,
];
export const ScalarField = Type.Union(scalarFields);
export const ListField = field(
  "list",
  {
    items: ScalarField,
    min_items: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_LIST_ITEMS })),
    max_items: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_ITEMS })),
  },
  `A list of values of one scalar type, at most max_items (default ${MAX_LIST_ITEMS}).`,
);
export const FieldDef = Type.Union([...scalarFields, ListField], { description: "A typed field, discriminated by `type`." });
export type FieldDef = Static<typeof FieldDef>;
export type ScalarFieldDef = Static<typeof ScalarField>;
export type FieldType = FieldDef["type"];

export const RecordSchemaInput = Type.Object(
  {
    fields: Type.Optional(
      Type.Record(Type.String({ pattern: FIELD_NAME_PATTERN }), FieldDef, {
        description: `Field name (${FIELD_NAME_PATTERN}) → definition; at most ${MAX_FIELDS}.`,
        maxProperties: MAX_FIELDS,
        additionalProperties: false,
      }),
    ),
    additional_fields: Type.Optional(
      Type.Boolean({
        description:
          "With declared `fields`: true also accepts fields the schema does not declare (any JSON value, as in an open collection), " +
          "while declared ones are validated. Default false: a record may hold declared fields only. A schema that declares no fields is open whatever this says.",
      }),
    ),
    stages: Type.Optional(
      Type.Array(Type.String({ pattern: STAGE_PATTERN }), {
        minItems: 1,
        maxItems: MAX_STAGES,
        uniqueItems: true,
        description: "A record's `status` is one of these. Default by archetype: " +
          Object.entries(DEFAULT_STAGES).map(([a, s]) => `${a}: ${s.join(", ")}`).join("; ") + ".",
      }),
    ),
  },
  {
    ...strict,
    description:
      "Typed fields and stages of the collection's records. Without declared `fields` (absent or `{}`) the collection is **open**: " +
      `a record may carry any field named ${FIELD_NAME_PATTERN} with any JSON value (nesting at most ${MAX_VALUE_DEPTH} levels; ` +
      "keys of nested objects neither start with `$` nor contain `.`), within the record size bound.",
  },
);
export type RecordSchemaInput = Static<typeof RecordSchemaInput>;

/** The schema as stored: stages always present; `additional_fields` only when true. */
export interface RecordSchema {
  fields: Record<string, FieldDef>;
  stages: string[];
  additional_fields?: true;
}

/** The stored schema of a new collection, stages defaulted by archetype. */
export function recordSchemaOf(archetype: Archetype, input: RecordSchemaInput | undefined): RecordSchema {
  const schema: RecordSchema = { fields: input?.fields ?? {}, stages: input?.stages ?? [...DEFAULT_STAGES[archetype]] };
  if (input?.additional_fields === true) schema.additional_fields = true;
  return schema;
}

/** Open (no declared fields) or declared with `additional_fields`: undeclared names are accepted. */
export function acceptsUndeclared(schema: RecordSchema): boolean {
  return schema.additional_fields === true || Object.keys(schema.fields).length === 0;
}

const FIELD_NAME = new RegExp(FIELD_NAME_PATTERN);

/** Whether a record of this schema may hold a field of this name (declared, or accepted undeclared). */
export function admitsField(schema: RecordSchema, name: string): boolean {
  return Object.hasOwn(schema.fields, name) || (acceptsUndeclared(schema) && FIELD_NAME.test(name));
}

/**
 * What TypeBox cannot say about a schema: bounds in order, patterns that compile. Every problem
 * at once, as details under `path` (e.g. `/record_schema`).
 */
export function schemaProblems(schema: RecordSchema, path: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const [name, def] of Object.entries(schema.fields)) {
    const at = `${path}/fields/${name}`;
    checkDef(def, at, out);
    if (def.type === "list") checkDef(def.items, `${at}/items`, out);
    if (def.type === "list" && def.min_items !== undefined && def.max_items !== undefined && def.min_items > def.max_items) {
      out.push({ path: at, message: "min_items is greater than max_items" });
    }
  }
  return out;
}

function checkDef(def: FieldDef | ScalarFieldDef, at: string, out: ErrorDetail[]): void {
  if ("min" in def && "max" in def && def.min !== undefined && def.max !== undefined) {
    const [lo, hi] = def.type === "datetime" ? [Date.parse(def.min as string), Date.parse(def.max as string)] : [def.min, def.max];
    if (lo > hi) out.push({ path: at, message: "min is greater than max" });
  }
  if (def.type === "string") {
    if (def.min_length !== undefined && def.max_length !== undefined && def.min_length > def.max_length) {
      out.push({ path: at, message: "min_length is greater than max_length" });
    }
    if (def.pattern !== undefined) {
      try {
        new RegExp(def.pattern, "u");
      } catch {
        out.push({ path: `${at}/pattern`, message: "is not a valid regular expression" });
      }
    }
  }
}
