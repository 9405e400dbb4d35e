/**
 * Documents of the collections module in the MongoDB adapter, and their mapping to and from the
 * models. The rules that keep them consistent without transactions are in collection-store.ts,
 * record-store.ts and entity-store.ts (docs/decisions/005-mongo-without-transactions.md).
 *
 * - `collections`: the collection, `_id` = its id. `views`, `distill_policy`,
 *   `connector_mapping` and `presentation` are free-form JSON chosen by clients, whose keys may
 *   hold `.` or start with `$` (FerretDB refuses both), so they are stored as JSON text
 *   (`*_json`). Adapter bookkeeping: `name_lc` (the lower-cased name, for `nameWords`) and
 *   `purging` (set when a purge began: readers no longer see the collection).
 * - `collection_versions`: the lock of every collection write. Unique (workspace_id,
 *   collection_id, version); a write of version v+1 inserts it with the whole next state in
 *   `snapshot` (unset once the version after it commits); a purge inserts one with `purge: true`.
 * - `records`: the record as the model has it, `_id` = its id. `fields.<name>` is the operand
 *   path of filters and sorts as is.
 * - `record_changes`: the history entries, `_id` = the entry's id. Unique (workspace_id,
 *   record_id, version): the lock of every record write. An update's entry carries the record's
 *   next state in `next` while it is the newest entry (a write cut short after it is rolled
 *   forward from it). A deletion inserts a lock entry with `deleting: true` (no `type`), never
 *   shown as history.
 * - `entities`: the entity, `_id` = its id, `attributes` as JSON text (free-form keys, as
 *   above), plus `dedup_slot`: `k:<dedup_norm>` for an entity with a key, `id:<id>` without.
 *   Unique (workspace_id, kind, dedup_slot) is the upsert's lock; FerretDB v1 has no partial
 *   index, and the slot needs none (an entity without a key holds a slot of its own).
 * - `entity_versions`: the lock of every entity merge, unique (workspace_id, entity_id,
 *   version), with the next state in `snapshot` like collection versions.
 */
import type { Collection, CollectionRecord, Entity, RecordChange } from "../../../core/collections/model.ts";

export type CollectionDoc = Omit<Collection, "id" | "views" | "distill_policy" | "connector_mapping" | "presentation"> & {
  _id: string;
  views_json: string;
  distill_policy_json: string;
  connector_mapping_json: string;
  presentation_json: string;
  /** `name.toLowerCase()`: what `CollectionFilter.nameWords` match. */
  name_lc: string;
  /** When a purge began (ISO): from then on the collection does not exist for readers. */
  purging?: string;
};

export interface CollectionVersionDoc {
  _id: string;
  workspace_id: string;
  collection_id: string;
  version: number;
  /** The state this version gives the collection; unset once a newer version commits. */
  snapshot?: CollectionDoc;
  /** The lock of a purge: no state, the collection goes. */
  purge?: true;
}

export type RecordDoc = Omit<CollectionRecord, "id"> & { _id: string };

export type RecordChangeDoc = Omit<RecordChange, "id"> & {
  _id: string;
  /** The record this change gives, while the change is the newest (roll-forward of a write cut short). */
  next?: RecordDoc;
};

/** The lock of a record deletion, in `record_changes`: holds the version after the record's last. */
export interface RecordDeletionLockDoc {
  _id: string;
  workspace_id: string;
  collection_id: string;
  record_id: string;
  version: number;
  deleting: true;
  at: string;
}

export type RecordChangesDoc = RecordChangeDoc | RecordDeletionLockDoc;

export type EntityDoc = Omit<Entity, "id" | "attributes"> & {
  _id: string;
  attributes_json: string;
  /** `k:<dedup_norm>`, or `id:<id>` for an entity without a key: unique per (workspace, kind). */
  dedup_slot: string;
};

export interface EntityVersionDoc {
  _id: string;
  workspace_id: string;
  entity_id: string;
  version: number;
  snapshot?: EntityDoc;
}

/** Writes leave `undefined` members out (the driver would store them as null). */
export const WRITE_OPTIONS = { ignoreUndefined: true } as const;

/** History reads leave the lock bookkeeping on the server. */
export const CHANGE_FIELDS_ONLY = { next: 0 } as const;

export const dedupSlot = (e: Pick<Entity, "id" | "dedup_norm">) => (e.dedup_norm === null ? `id:${e.id}` : `k:${e.dedup_norm}`);

const json = (v: unknown) => JSON.stringify(v ?? null);
const parsed = <T>(s: string | undefined, fallback: T): T => (typeof s === "string" ? (JSON.parse(s) as T) : fallback);

// ---- models → documents ----

export function collectionDoc(c: Collection): CollectionDoc {
  return {
    _id: c.id,
    workspace_id: c.workspace_id,
    name: c.name,
    archetype: c.archetype,
    status: c.status,
    record_schema: c.record_schema,
    views_json: json(c.views),
    criterion_rel_slugs: [...c.criterion_rel_slugs],
    distill_policy_json: json(c.distill_policy),
    connector_mapping_json: json(c.connector_mapping),
    presentation_json: json(c.presentation),
    owner_identity_id: c.owner_identity_id,
    created_by: c.created_by,
    version: c.version,
    created_at: c.created_at,
    updated_at: c.updated_at,
    name_lc: c.name.toLowerCase(),
  };
}

export function recordDoc(r: CollectionRecord): RecordDoc {
  return {
    _id: r.id,
    workspace_id: r.workspace_id,
    collection_id: r.collection_id,
    fields: r.fields,
    status: r.status,
    field_meta: r.field_meta,
    entity_id: r.entity_id,
    drifted: r.drifted,
    search_text: r.search_text,
    created_by: r.created_by,
    updated_by: r.updated_by,
    version: r.version,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function recordChangeDoc(c: RecordChange, next?: CollectionRecord): RecordChangeDoc {
  const d: RecordChangeDoc = {
    _id: c.id,
    workspace_id: c.workspace_id,
    collection_id: c.collection_id,
    record_id: c.record_id,
    version: c.version,
    type: c.type,
    actor_id: c.actor_id,
    actor_kind: c.actor_kind,
    at: c.at,
    diff: c.diff,
    stage: c.stage,
    outcome: c.outcome,
  };
  if (next) d.next = recordDoc(next);
  return d;
}

export function entityDoc(e: Entity): EntityDoc {
  return {
    _id: e.id,
    workspace_id: e.workspace_id,
    kind: e.kind,
    name: e.name,
    dedup_key: e.dedup_key,
    dedup_norm: e.dedup_norm,
    attributes_json: json(e.attributes),
    version: e.version,
    created_at: e.created_at,
    updated_at: e.updated_at,
    dedup_slot: dedupSlot(e),
  };
}

// ---- documents → models ----

export function toCollection(d: CollectionDoc): Collection {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    name: d.name,
    archetype: d.archetype,
    status: d.status,
    record_schema: d.record_schema,
    views: parsed(d.views_json, [] as unknown[]),
    criterion_rel_slugs: d.criterion_rel_slugs ?? [],
    distill_policy: parsed(d.distill_policy_json, null),
    connector_mapping: parsed(d.connector_mapping_json, null),
    presentation: parsed(d.presentation_json, null),
    owner_identity_id: d.owner_identity_id ?? null,
    created_by: d.created_by ?? null,
    version: d.version,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toRecord(d: RecordDoc): CollectionRecord {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    collection_id: d.collection_id,
    fields: d.fields ?? {},
    status: d.status,
    field_meta: d.field_meta ?? {},
    entity_id: d.entity_id ?? null,
    drifted: d.drifted ?? false,
    search_text: d.search_text ?? "",
    created_by: d.created_by ?? null,
    updated_by: d.updated_by ?? null,
    version: d.version,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toRecordChange(d: RecordChangeDoc): RecordChange {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    collection_id: d.collection_id,
    record_id: d.record_id,
    version: d.version,
    type: d.type,
    actor_id: d.actor_id ?? null,
    actor_kind: d.actor_kind,
    at: d.at,
    diff: d.diff ?? [],
    stage: d.stage ?? null,
    outcome: d.outcome ?? null,
  };
}

export function toEntity(d: EntityDoc): Entity {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    kind: d.kind,
    name: d.name,
    dedup_key: d.dedup_key ?? null,
    dedup_norm: d.dedup_norm ?? null,
    attributes: parsed(d.attributes_json, {} as Record<string, unknown>),
    version: d.version,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}
