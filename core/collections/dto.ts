import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { UUID_PATTERN } from "../kernel/ids.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { ARCHETYPES, COLLECTION_STATUSES } from "./archetype.ts";
import { FilterNode } from "./record-filter.ts";
import { FIELD_NAME_PATTERN, FieldDef, type RecordSchema, RecordSchemaInput, STAGE_PATTERN } from "./record-schema.ts";
import { DeclaredAggregateDef, MAX_VIEW_AGGREGATES } from "./record-rollup.ts";
import { RecordSort } from "./record-sort.ts";

/** The request bodies of the collection routes (named as the API reference names them) and the views they answer with. */
const strict = { additionalProperties: false } as const;
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Id = Type.String({ pattern: UUID_PATTERN });
const Version = Type.Integer({
  minimum: 1,
  description:
    "Optimistic concurrency: the version this write is based on (or send `If-Match`). A stale one is 409 VERSION_CONFLICT with `current_version`; nothing is applied.",
});
const FieldName = Type.String({ pattern: FIELD_NAME_PATTERN });
const Json = Type.Record(Type.String(), Type.Unknown());

export const VIEW_KINDS = ["table", "board", "calendar", "list", "gallery"] as const;
export const CollectionViewDef = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    kind: literalUnion(VIEW_KINDS),
    columns: Type.Optional(
      Type.Array(Type.String({ maxLength: 80 }), { maxItems: 100, description: "`fields.<name>` or record columns." }),
    ),
    group_by: Type.Optional(Type.String({ maxLength: 80, description: "A board's lanes: `status` or a scalar `fields.<name>`." })),
    sort: Type.Optional(RecordSort),
    filter: Type.Optional(FilterNode),
    aggregates: Type.Optional(Type.Array(DeclaredAggregateDef, { maxItems: MAX_VIEW_AGGREGATES })),
  },
  { ...strict, description: "A saved way of looking at the records; its fields must exist in the record_schema." },
);
export const Views = Type.Array(CollectionViewDef, { maxItems: 20 });

export const DistillPolicy = Type.Object(
  {
    enabled: Type.Boolean(),
    schedule: Type.Optional(literalUnion(["hourly", "daily", "weekly"] as const)),
    min_confidence: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: "Only values whose field_meta confidence reaches this are distilled." }),
    ),
    fields: Type.Optional(Type.Array(FieldName, { maxItems: 100 })),
  },
  { ...strict, description: "How the collection's records are distilled into Knowledge." },
);

const CriterionSlugs = Type.Array(Type.String({ minLength: 1, maxLength: 120, pattern: "^[a-z0-9][a-z0-9-]*$" }), {
  maxItems: 20,
  uniqueItems: true,
  description: "Slugs of the Knowledge topics that state the collection's criterion (GET …/context resolves them).",
});
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CreateCollectionDto = Type.Object(
  {
    name: Name,
    archetype: literalUnion(ARCHETYPES),
    record_schema: Type.Optional(RecordSchemaInput),
    views: Type.Optional(Views),
    criterion_rel_slugs: Type.Optional(CriterionSlugs),
    distill_policy: Type.Optional(DistillPolicy),
    owner_identity_id: Type.Optional(Type.String({ ...Id, description: "An identity of a member; default the caller." })),
  },
  strict,
);
export type CreateCollectionDto = Static<typeof CreateCollectionDto>;

export const UpdateCollectionDto = Type.Object(
  {
    name: Type.Optional(Name),
    status: Type.Optional(literalUnion(COLLECTION_STATUSES)),
    record_schema: Type.Optional(RecordSchemaInput),
    views: Type.Optional(Views),
    criterion_rel_slugs: Type.Optional(CriterionSlugs),
    distill_policy: Type.Optional(Nullable(DistillPolicy)),
    expected_version: Type.Optional(Version),
  },
  {
    ...strict,
    minProperties: 1,
    description:
      "A record_schema given replaces the stored one (stages default by archetype). Records that no longer fit are not rewritten: GET /collections/doctor finds them.",
  },
);
export type UpdateCollectionDto = Static<typeof UpdateCollectionDto>;

export const VersionOnlyDto = Type.Object({ expected_version: Type.Optional(Version) }, strict);
export type VersionOnlyDto = Static<typeof VersionOnlyDto>;

export const ConnectorMapping = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 100, description: "The connector, e.g. `hubspot`, `csv`." }),
    fields: Type.Record(FieldName, Type.String({ minLength: 1, maxLength: 200 }), {
      maxProperties: 100,
      additionalProperties: false,
      description: "record field → the source's path of its value.",
    }),
    entity: Type.Optional(
      Type.Object({
        kind: Type.String({ minLength: 1, maxLength: 64 }),
        name_from: Type.String({ minLength: 1, maxLength: 200 }),
        dedup_key_from: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      }, strict),
    ),
  },
  { ...strict, description: "How an outside system's rows map onto this collection's records." },
);
export const SetConnectorMappingDto = Type.Object(
  { mapping: Nullable(ConnectorMapping), expected_version: Type.Optional(Version) },
  strict,
);
export type SetConnectorMappingDto = Static<typeof SetConnectorMappingDto>;

export const Presentation = Type.Object(
  {
    title_field: Type.Optional(FieldName),
    subtitle_field: Type.Optional(FieldName),
    badge_field: Type.Optional(FieldName),
    card_fields: Type.Optional(Type.Array(FieldName, { maxItems: 20 })),
    color_by: Type.Optional(Type.String({ maxLength: 80, description: "`status` or a scalar `fields.<name>`." })),
    default_view: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The name of one of the collection's views." })),
  },
  strict,
);
export const SetPresentationDto = Type.Object({ ...Presentation.properties, expected_version: Type.Optional(Version) }, {
  ...strict,
  description: "Replaces the presentation: how clients show a record. Every field named must exist.",
});
export type SetPresentationDto = Static<typeof SetPresentationDto>;

export const FieldMetaSchema = Type.Object(
  {
    source: Type.Optional(Type.String({ maxLength: 200 })),
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    updated_at: Type.Optional(Type.String({ format: "date-time" })),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  strict,
);
const FieldMetaMap = Type.Record(FieldName, FieldMetaSchema, {
  maxProperties: 100,
  additionalProperties: false,
  description: "Per-field metadata, keyed by field name.",
});
const Stage = Type.String({ pattern: STAGE_PATTERN, description: "One of the collection's stages." });

export const CreateRecordDto = Type.Object(
  {
    fields: Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
      maxProperties: 100,
      description: "Values, checked against the record_schema; every error is reported at once.",
    }),
    status: Type.Optional(Type.String({ maxLength: 64, description: "One of the collection's stages; default the first." })),
    field_meta: Type.Optional(FieldMetaMap),
    entity_id: Type.Optional(Type.String({ ...Id, description: "An entity of the workspace." })),
  },
  strict,
);
export type CreateRecordDto = Static<typeof CreateRecordDto>;

export const UpdateRecordDto = Type.Object(
  {
    fields: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
        maxProperties: 100,
        description: "Merged into the values (JSON Merge Patch at the first level: null removes a value).",
      }),
    ),
    status: Type.Optional(Type.String({ maxLength: 64 })),
    field_meta: Type.Optional(
      Type.Record(FieldName, Nullable(FieldMetaSchema), {
        maxProperties: 100,
        additionalProperties: false,
        description: "Merged per field; null removes a field's metadata.",
      }),
    ),
    entity_id: Type.Optional(Nullable(Type.String(Id))),
    drifted: Type.Optional(Type.Boolean()),
    expected_version: Type.Optional(Version),
  },
  { ...strict, minProperties: 1 },
);
export type UpdateRecordDto = Static<typeof UpdateRecordDto>;

export const RECORD_VIEWS = ["full", "compact"] as const;
export type RecordViewName = (typeof RECORD_VIEWS)[number];
export const RECORDS_LIMIT = { default: 50, max: 200 } as const;

export const QueryRecordsDto = Type.Object(
  {
    filter: Type.Optional(FilterNode),
    sort: Type.Optional(RecordSort),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: RECORDS_LIMIT.max, description: `Default ${RECORDS_LIMIT.default}.` })),
    cursor: Type.Optional(
      Type.String({ maxLength: 2048, description: "`nextCursor` of the previous page, issued for this same filter and sort (else 400)." }),
    ),
    view: Type.Optional(literalUnion(RECORD_VIEWS)),
  },
  strict,
);
export type QueryRecordsDto = Static<typeof QueryRecordsDto>;

export const RecordOutcomeDto = Type.Object(
  {
    outcome: Type.String({ pattern: "^[a-z][a-z0-9_-]{0,63}$", description: "e.g. `won`, `lost`, `published`, `confirmed`." }),
    value: Type.Optional(Type.Number({ description: "e.g. the deal's amount, the post's reach." })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    occurred_at: Type.Optional(Type.String({ format: "date-time", description: "Default now." })),
    status: Type.Optional(Stage),
    expected_version: Type.Optional(Version),
  },
  { ...strict, description: "Records what came of a record: a history entry (type record.outcome); with `status`, also a stage move." },
);
export type RecordOutcomeDto = Static<typeof RecordOutcomeDto>;

export const UpsertEntityDto = Type.Object(
  {
    kind: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: "\\S",
      description: "e.g. company, person, product; compared case-insensitively.",
    }),
    name: Type.String({ minLength: 1, maxLength: 300 }),
    dedup_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        pattern: "\\S",
        description:
          "The identity of the entity within its kind (a domain, an e-mail); compared normalised (NFKC, trimmed, whitespace folded, lower-case). Without it, every call creates an entity.",
      }),
    ),
    attributes: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.Unknown(), {
        maxProperties: 100,
        description: "Merged into the stored attributes (null removes one).",
      }),
    ),
  },
  strict,
);
export type UpsertEntityDto = Static<typeof UpsertEntityDto>;

// ---- views (responses) ----

/** A record_schema as answered: stages always, `additional_fields` only when true. */
export const StoredRecordSchema = Type.Unsafe<RecordSchema>(
  Type.Object({
    fields: Type.Record(Type.String(), FieldDef),
    stages: Type.Array(Type.String()),
    additional_fields: Type.Optional(Type.Literal(true)),
  }),
);

export const CollectionView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  archetype: literalUnion(ARCHETYPES),
  status: literalUnion(COLLECTION_STATUSES),
  record_schema: Type.Optional(StoredRecordSchema),
  views: Type.Optional(Type.Array(Type.Unknown(), { description: "As set (see CollectionViewDef)." })),
  criterion_rel_slugs: Type.Array(Type.String()),
  distill_policy: Type.Optional(Nullable(Json)),
  connector_mapping: Type.Optional(Nullable(Json)),
  presentation: Type.Optional(Nullable(Json)),
  owner_identity_id: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  version: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type CollectionView = Static<typeof CollectionView>;
/** The full view: what the summary leaves out is always there. */
export type FullCollectionView =
  & CollectionView
  & Required<Pick<CollectionView, "record_schema" | "views" | "distill_policy" | "connector_mapping" | "presentation">>;
/** The connector mapping and the presentation are parts of a collection, read and set with its version. */
export const ConnectorMappingView = Type.Object({ mapping: Type.Union([ConnectorMapping, Type.Null()]), version: Type.Integer() });
export type ConnectorMappingView = Static<typeof ConnectorMappingView>;
export const PresentationView = Type.Object({ presentation: Type.Union([Presentation, Type.Null()]), version: Type.Integer() });
export type PresentationView = Static<typeof PresentationView>;
export type ConnectorMapping = Static<typeof ConnectorMapping>;
export type Presentation = Static<typeof Presentation>;
export const COLLECTION_VIEWS = ["full", "summary"] as const;
export type CollectionViewName = (typeof COLLECTION_VIEWS)[number];

export const RecordView = Type.Object({
  id: Type.String(),
  collection_id: Type.String(),
  fields: Type.Optional(Json),
  status: Type.String(),
  field_meta: Type.Optional(Json),
  entity_id: Nullable(Type.String()),
  drifted: Type.Boolean(),
  created_by: Type.Optional(Nullable(Type.String())),
  updated_by: Type.Optional(Nullable(Type.String())),
  version: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type RecordView = Static<typeof RecordView>;

export const RecordChangeView = Type.Object({
  version: Type.Integer(),
  type: Type.String(),
  actor_id: Nullable(Type.String()),
  actor_kind: Type.String(),
  at: Type.String(),
  diff: Type.Array(Type.Object({ path: Type.String(), before: Type.Unknown(), after: Type.Unknown() })),
  stage: Nullable(Type.Object({ from: Nullable(Type.String()), to: Type.String() })),
  outcome: Nullable(
    Type.Object({ outcome: Type.String(), value: Nullable(Type.Number()), note: Nullable(Type.String()), occurred_at: Type.String() }),
  ),
});

export const EntityView = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  name: Type.String(),
  dedup_key: Nullable(Type.String()),
  attributes: Json,
  version: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type EntityView = Static<typeof EntityView>;
