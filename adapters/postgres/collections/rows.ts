import type { Collection, CollectionRecord, Entity } from "../../../core/collections/model.ts";
import { type Row, str, strOrNull } from "../row-values.ts";

/**
 * The columns of `collections`, `collection_records` and `entities` and their rows as core's
 * records: what the collection stores read and write, and what another module's statement that
 * reads these tables maps its rows with (contacts' unlock context).
 */
export const COLLECTION_COLUMNS =
  "workspace_id, id, name, archetype, status, record_schema, views, criterion_rel_slugs, distill_policy, connector_mapping, presentation, owner_identity_id, created_by, version, created_at, updated_at";

export function toCollection(r: Row): Collection {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    name: str(r.name),
    archetype: r.archetype as Collection["archetype"],
    status: r.status as Collection["status"],
    record_schema: r.record_schema as Collection["record_schema"],
    views: r.views as unknown[],
    criterion_rel_slugs: r.criterion_rel_slugs as string[],
    distill_policy: (r.distill_policy ?? null) as Collection["distill_policy"],
    connector_mapping: (r.connector_mapping ?? null) as Collection["connector_mapping"],
    presentation: (r.presentation ?? null) as Collection["presentation"],
    owner_identity_id: strOrNull(r.owner_identity_id),
    created_by: strOrNull(r.created_by),
    version: Number(r.version),
    created_at: str(r.created_at),
    updated_at: str(r.updated_at),
  };
}

export const RECORD_COLUMNS =
  "workspace_id, collection_id, id, fields, status, field_meta, entity_id, drifted, search_text, created_by, updated_by, version, created_at, updated_at";

/** The columns of a record history entry (`record_changes`), in the order the inserts name them. */
export const CHANGE_COLUMNS = "workspace_id, record_id, version, collection_id, id, type, actor_id, actor_kind, at, diff, stage, outcome";

export function toRecord(r: Row): CollectionRecord {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    collection_id: str(r.collection_id),
    fields: r.fields as CollectionRecord["fields"],
    status: str(r.status),
    field_meta: r.field_meta as CollectionRecord["field_meta"],
    entity_id: strOrNull(r.entity_id),
    drifted: r.drifted as boolean,
    search_text: str(r.search_text),
    created_by: strOrNull(r.created_by),
    updated_by: strOrNull(r.updated_by),
    version: Number(r.version),
    created_at: str(r.created_at),
    updated_at: str(r.updated_at),
  };
}

export const ENTITY_COLUMNS = "workspace_id, id, kind, name, dedup_key, dedup_norm, attributes, version, created_at, updated_at";

export function toEntity(r: Row): Entity {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    kind: str(r.kind),
    name: str(r.name),
    dedup_key: strOrNull(r.dedup_key),
    dedup_norm: strOrNull(r.dedup_norm),
    attributes: r.attributes as Entity["attributes"],
    version: Number(r.version),
    created_at: str(r.created_at),
    updated_at: str(r.updated_at),
  };
}
