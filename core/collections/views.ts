import type {
  CollectionView,
  CollectionViewName,
  ConnectorMapping,
  ConnectorMappingView,
  EntityView,
  FullCollectionView,
  Presentation,
  PresentationView,
  RecordView,
  RecordViewName,
} from "./dto.ts";
import type { Collection, CollectionRecord, Entity, RecordChange } from "./model.ts";

/** What the API shows of stored collections, records, changes and entities. */
export function toCollectionView(c: Collection, view?: "full"): FullCollectionView;
export function toCollectionView(c: Collection, view: CollectionViewName): CollectionView;
export function toCollectionView(c: Collection, view: CollectionViewName = "full"): CollectionView {
  const { workspace_id: _w, record_schema, views, distill_policy, connector_mapping, presentation, ...rest } = c;
  return (view === "summary" ? rest : { ...rest, record_schema, views, distill_policy, connector_mapping, presentation }) as CollectionView;
}

export function toConnectorMappingView(c: Collection): ConnectorMappingView {
  return { mapping: c.connector_mapping as ConnectorMapping | null, version: c.version };
}

export function toPresentationView(c: Collection): PresentationView {
  return { presentation: c.presentation as Presentation | null, version: c.version };
}

export function toRecordView(r: CollectionRecord, view: RecordViewName = "full"): RecordView {
  const { workspace_id: _w, search_text: _s, fields, field_meta, created_by, updated_by, ...rest } = r;
  return view === "compact" ? rest : { ...rest, fields, field_meta, created_by, updated_by };
}

export function toChangeView(c: RecordChange) {
  const { id: _i, workspace_id: _w, collection_id: _c, record_id: _r, ...rest } = c;
  return rest;
}

export function toEntityView(e: Entity): EntityView {
  const { workspace_id: _w, dedup_norm: _n, ...rest } = e;
  return rest;
}

const size = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

/**
 * Fits a record view into `maxBytes` of JSON: drops `field_meta` first, then shortens the
 * longest text values (marked with "…"), then leaves out whole values, largest first. Says what
 * it cut, so a reader never mistakes a trimmed record for the whole one.
 */
export function trimToBytes(
  view: RecordView,
  maxBytes: number,
): { record: RecordView; truncated: boolean; omitted: string[]; shortened: string[] } {
  if (size(view) <= maxBytes) return { record: view, truncated: false, omitted: [], shortened: [] };
  const record: RecordView = structuredClone(view);
  const omitted: string[] = [];
  const shortened: string[] = [];
  if (record.field_meta && Object.keys(record.field_meta).length) {
    record.field_meta = {};
    omitted.push("field_meta");
  }
  const fields = (record.fields ?? {}) as Record<string, unknown>;
  for (let round = 0; round < 200 && size(record) > maxBytes; round++) {
    const texts = Object.entries(fields).filter(([, v]) => typeof v === "string" && (v as string).length > 32);
    if (!texts.length) break;
    const [name, v] = texts.sort((a, b) => (b[1] as string).length - (a[1] as string).length)[0]! as [string, string];
    const over = size(record) - maxBytes;
    fields[name] = v.slice(0, Math.max(16, v.length - over - 8)) + "…";
    if (!shortened.includes(`fields.${name}`)) shortened.push(`fields.${name}`);
  }
  while (size(record) > maxBytes) {
    const entries = Object.entries(fields);
    if (!entries.length) break;
    const [name] = entries.sort((a, b) => size(b[1]) - size(a[1]))[0]!;
    delete fields[name];
    omitted.push(`fields.${name}`);
  }
  return { record, truncated: true, omitted, shortened: shortened.filter((p) => !omitted.includes(p)) };
}
