import { Type } from "@sinclair/typebox";
import {
  COLLECTION_STATUSES,
  COLLECTION_VIEWS,
  COLLECTIONS_LIMIT,
  ENTITIES_LIMIT,
  FieldDef,
  type FieldDef as FieldDefT,
  MAX_BYTES,
  MAX_HISTORY_VERSION,
  MAX_SHAPE_FIELDS,
  RECORD_HISTORY_LIMIT,
  RECORD_VIEWS,
  RECORDS_LIMIT,
  StoredRecordSchema,
} from "../../../core/collections/mod.ts";
import { UUID_PATTERN } from "../../../core/kernel/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import {
  booleanParam,
  enumParam,
  fieldNamesParam,
  IfMatchHeader,
  integerParam,
  limitParam,
  timestampParam,
  uuidParam,
  versionParam,
} from "../../http/query-schemas.ts";
import { strict } from "../../http/schemas.ts";

/** What the collection, record and entity routes share: path parameters, headers, query strings. */
const Id = (description: string) => Type.String({ pattern: UUID_PATTERN, description });
export const SlugParams = Type.Object({ slug: SlugSchema }, strict);
export const CollectionParams = Type.Object({ slug: SlugSchema, id: Id("A collection id.") }, strict);
export const RecordParams = Type.Object({ slug: SlugSchema, id: Id("A collection id."), recordId: Id("A record id.") }, strict);
export const EntityParams = Type.Object({ slug: SlugSchema, id: Id("An entity id.") }, strict);

export const IfMatch = Type.Object({ "if-match": IfMatchHeader });

const str = (description: string) => Type.Optional(Type.String({ description }));

export const CollectionListQuery = Type.Object(
  {
    status: enumParam(COLLECTION_STATUSES, "`active` (default) or `archived`."),
    owner: uuidParam("Only collections of this owner identity id."),
    updated_after: timestampParam("RFC 3339 date-time: only collections changed after it."),
    limit: limitParam(COLLECTIONS_LIMIT),
    cursor: uuidParam("The `id` of the last collection of the previous page (lists are newest first)."),
  },
  strict,
);
export const CollectionSearchQuery = Type.Object(
  {
    ...CollectionListQuery.properties,
    q: Type.Optional(Type.String({ maxLength: 200, description: "Words that must all occur in the name (case-insensitive)." })),
    status: enumParam(COLLECTION_STATUSES, "`active` or `archived`; default active, or both with include_archived=true."),
    include_archived: booleanParam("Also archived collections."),
  },
  strict,
);
export const VersionQuery = Type.Object(
  {
    expected_version: versionParam(
      "The version the write is based on (like the body's `expected_version` or `If-Match`; given twice, they must agree).",
    ),
  },
  strict,
);
export const CollectionGetQuery = Type.Object(
  { view: enumParam(COLLECTION_VIEWS, "`full` (default) or `summary` (without record_schema, views, policies, mapping, presentation).") },
  strict,
);
export const DoctorQuery = Type.Object(
  { full: booleanParam("true: scan everything; default a bounded sample (the report says which).") },
  strict,
);
export const PurgeQuery = Type.Object(
  {
    dry_run: booleanParam("true: only report what a purge would remove."),
    expected_version: versionParam("The version of the collection being purged (or If-Match); required for a real purge."),
  },
  strict,
);

const listParams = {
  status: str("Only records in this stage."),
  entity_id: uuidParam("Only records linked to this entity."),
  drifted: booleanParam("Only drifted (true) or not drifted (false) records."),
  updated_after: timestampParam("RFC 3339 date-time: only records changed after it."),
  view: enumParam(RECORD_VIEWS, "`full` (default) or `compact` (without fields and field_meta)."),
  limit: limitParam(RECORDS_LIMIT),
  cursor: Type.Optional(
    Type.String({
      pattern: "^[A-Za-z0-9_-]{1,2048}$",
      description: "`nextCursor` of the previous page of this same listing (opaque; one not issued for this listing is a 400).",
    }),
  ),
};
export const RecordListQuery = Type.Object(listParams, strict);
export const RetrieveQuery = Type.Object(
  {
    ...listParams,
    query: str("Words that must all occur in the record's text values (case-insensitive)."),
    fields: fieldNamesParam("Comma-separated field names: the records' `fields` carry only these."),
  },
  strict,
);
export const RecordGetQuery = Type.Object(
  {
    select: fieldNamesParam("Comma-separated field names: `fields` carries only these."),
    projection: enumParam(RECORD_VIEWS, "`full` (default) or `compact` (without fields and field_meta)."),
    max_bytes: integerParam(
      MAX_BYTES.min,
      MAX_BYTES.max,
      "Bound of the answer's record JSON, 256 to 1048576. Over it, the record is trimmed and `truncated` says what was cut.",
    ),
  },
  strict,
);
export const RecordDeleteQuery = Type.Object(
  {
    dry_run: booleanParam("true: only report what deleting would remove."),
    expected_version: versionParam("Only delete at this version (or If-Match)."),
  },
  strict,
);
export const HistoryQuery = Type.Object(
  {
    limit: limitParam(RECORD_HISTORY_LIMIT),
    before_version: integerParam(1, MAX_HISTORY_VERSION, "Only entries older than this version (the next page)."),
  },
  strict,
);
export const EntityListQuery = Type.Object(
  {
    kind: str("Only entities of this kind."),
    limit: limitParam(ENTITIES_LIMIT),
    cursor: uuidParam("The `id` of the last entity of the previous page (newest first)."),
  },
  strict,
);

const Finding = Type.Object({ count: Type.Integer(), items: Type.Array(Type.Record(Type.String(), Type.Unknown())) });
/** GET /collections/doctor (core/collections/doctor.ts). */
export const DoctorReport = Type.Object({
  mode: Type.Union([Type.Literal("full"), Type.Literal("sample")]),
  complete: Type.Boolean({ description: "False when the sample left records or entities unread." }),
  sample_limits: Type.Union([Type.Object({ records: Type.Integer(), entities: Type.Integer() }), Type.Null()]),
  scanned: Type.Object({ collections: Type.Integer(), records: Type.Integer(), entities: Type.Integer() }),
  healthy: Type.Boolean(),
  findings: Type.Object({ status_not_a_stage: Finding, schema_mismatch: Finding, missing_entities: Finding, duplicate_entities: Finding }),
  shapes: Type.Array(
    Type.Object({
      collection_id: Type.String(),
      open: Type.Boolean({ description: "True when the collection declares no fields; false for declared fields with additional_fields." }),
      records_scanned: Type.Integer(),
      fields: Type.Array(
        Type.Object({
          name: Type.String(),
          records: Type.Integer({ description: "Scanned records holding the field." }),
          types: Type.Record(Type.String(), Type.Integer(), {
            description: "JSON types seen (string, number, boolean, array, object) → how many values.",
          }),
          // Unsafe: the field-definition union is too deep for Elysia's handler typing; the document shows it whole.
          suggested: Type.Unsafe<FieldDefT | null>(
            Type.Union([FieldDef, Type.Null()], {
              description: "A declaration every seen value fits; null when none does (mixed types, objects).",
            }),
          ),
        }),
      ),
      suggested_record_schema: StoredRecordSchema,
      untallied_fields: Type.Integer({ description: `Undeclared names seen beyond the first ${MAX_SHAPE_FIELDS}, left undeclared.` }),
    }),
    {
      description:
        "Per collection accepting undeclared fields (open, or additional_fields), the shape of the undeclared fields scanned and a record_schema " +
        "that declares what can be declared; `PATCH /collections/{id}` with `{record_schema: suggested_record_schema}` applies it " +
        "(it keeps additional_fields: true, so fields not seen yet are still accepted).",
    },
  ),
});
