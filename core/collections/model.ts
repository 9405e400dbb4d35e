import type { Archetype, CollectionStatus } from "./archetype.ts";
import type { RecordSchema } from "./record-schema.ts";
import type { RecordFields } from "./record-validation.ts";

/** A collection as stored. `views`, `distill_policy`, `connector_mapping`, `presentation`: see dto.ts. */
export interface Collection {
  id: string;
  workspace_id: string;
  name: string;
  archetype: Archetype;
  status: CollectionStatus;
  record_schema: RecordSchema;
  views: unknown[];
  criterion_rel_slugs: string[];
  distill_policy: Record<string, unknown> | null;
  connector_mapping: Record<string, unknown> | null;
  presentation: Record<string, unknown> | null;
  owner_identity_id: string | null;
  created_by: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Per-field metadata: where a value came from and how sure its source was. */
export interface FieldMeta {
  source?: string;
  confidence?: number;
  updated_at?: string;
  note?: string;
}

/** A record of a collection, as stored. */
export interface CollectionRecord {
  id: string;
  workspace_id: string;
  collection_id: string;
  fields: RecordFields;
  status: string;
  field_meta: Record<string, FieldMeta>;
  entity_id: string | null;
  drifted: boolean;
  /** Lower-cased text of the record's string values: what `retrieve?query=` matches (record-text.ts). */
  search_text: string;
  created_by: string | null;
  updated_by: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One changed value: `path` is `fields.<name>`, `status`, `entity_id`, `drifted` or `field_meta.<name>`. */
export interface FieldDiff {
  path: string;
  before: unknown;
  after: unknown;
}

export const RECORD_CHANGE_TYPES = ["record.created", "record.updated", "record.outcome"] as const;
export type RecordChangeType = (typeof RECORD_CHANGE_TYPES)[number];

export interface RecordOutcome {
  outcome: string;
  value: number | null;
  note: string | null;
  occurred_at: string;
}

/** One entry of a record's history: the version it made, who and when, and what changed. */
export interface RecordChange {
  id: string;
  workspace_id: string;
  collection_id: string;
  record_id: string;
  version: number;
  type: RecordChangeType;
  actor_id: string | null;
  actor_kind: "human" | "agent";
  at: string;
  diff: FieldDiff[];
  /** Set when the status moved: a stage transition. */
  stage: { from: string | null; to: string } | null;
  /** Set on `record.outcome`. */
  outcome: RecordOutcome | null;
}

/** An entity shared across collections: a company, a person, a product. */
export interface Entity {
  id: string;
  workspace_id: string;
  kind: string;
  name: string;
  /** As given; upserts match on `dedup_norm`. */
  dedup_key: string | null;
  /** `normalizeDedupKey(dedup_key)`: the key of the upsert, unique per (workspace, kind). */
  dedup_norm: string | null;
  attributes: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}
