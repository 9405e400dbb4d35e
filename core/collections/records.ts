import { actorKind, assertCanWrite, type Principal } from "../access/mod.ts";
import { releaseCapacity, withCapacityInWrite } from "../kernel/capacity.ts";
import type { CollectionDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, type ErrorDetail, isAppError, notFound, validationFailed, versionConflict } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { parseBool, type QueryBool } from "../kernel/query-params.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { findCollection } from "./collections.ts";
import type { CreateRecordDto, RecordOutcomeDto, RecordView, RecordViewName, UpdateRecordDto } from "./dto.ts";
import type { Collection, CollectionRecord, FieldMeta, RecordChange, RecordChangeType, RecordOutcome } from "./model.ts";
import type { RecordRemoval } from "./ports.ts";
import { diffRecords } from "./record-diff.ts";
import { admitsField } from "./record-schema.ts";
import { recordSearchText } from "./record-text.ts";
import { patchRecordFields, stageProblem, type ValidatedFields, validateRecordFields } from "./record-validation.ts";
import { toRecordView } from "./views.ts";

export const recordNotFound = () => notFound("Record");

/** Records of an archived collection are read-only until it is restored. */
function assertWritable(c: Collection): Collection {
  if (c.status === "archived") {
    throw conflict("Cannot change records: the collection is archived (restore it first)", { current_status: "archived" });
  }
  return c;
}

async function writableCollection(deps: CollectionDeps, p: Principal, ws: Workspace, cid: string): Promise<Collection> {
  assertCanWrite(p, "change records");
  return assertWritable(await findCollection(deps, ws, cid));
}

export async function findRecord(deps: CollectionDeps, ws: Workspace, cid: string, rid: string): Promise<CollectionRecord> {
  const r = await deps.stores.records.get(ws.id, cid, rid);
  if (!r) throw recordNotFound();
  return r;
}

/** Every problem of a record's next state at once: fields, stage, and the entities it links. */
async function assertRecordValid(
  deps: CollectionDeps,
  ws: Workspace,
  c: Collection,
  v: ValidatedFields,
  status: string | null,
  entityId: string | null,
  fieldMeta: Record<string, unknown>,
): Promise<void> {
  const errors: ErrorDetail[] = [...v.errors];
  const stage = status === null ? null : stageProblem(c.record_schema, status);
  if (stage) errors.push(stage);
  for (const name of Object.keys(fieldMeta)) {
    if (!admitsField(c.record_schema, name)) {
      errors.push({ path: `/field_meta/${name}`, message: "is not a field of this collection's record_schema" });
    }
  }
  const ids = [...new Set([...(entityId ? [entityId] : []), ...v.entityRefs.map((r) => r.id)])];
  if (ids.length) {
    const found = new Map((await deps.stores.entities.getMany(ws.id, ids)).map((e) => [e.id, e]));
    if (entityId && !found.has(entityId)) errors.push({ path: "/entity_id", message: "is not an entity of this workspace" });
    for (const ref of v.entityRefs) {
      const e = found.get(ref.id);
      if (!e) errors.push({ path: ref.path, message: "is not an entity of this workspace" });
      else if (ref.kind !== null && e.kind !== ref.kind) errors.push({ path: ref.path, message: `must be an entity of kind ${ref.kind}` });
    }
  }
  if (errors.length) throw validationFailed("Invalid record", errors);
}

/** The history entry of a record write (also of each record an import writes: record-import.ts). */
export function recordChangeOf(
  p: Principal,
  before: CollectionRecord | null,
  after: CollectionRecord,
  type: RecordChangeType,
  outcome: RecordOutcome | null = null,
): RecordChange {
  return {
    id: uuidv7(Date.parse(after.updated_at)),
    workspace_id: after.workspace_id,
    collection_id: after.collection_id,
    record_id: after.id,
    version: after.version,
    type,
    actor_id: p.identityId,
    actor_kind: actorKind(p),
    at: after.updated_at,
    diff: diffRecords(before, after),
    stage: before?.status === after.status ? null : { from: before?.status ?? null, to: after.status },
    outcome,
  };
}

/** A record create against collection `c`; "collection_changed" when the insert found `c` stale (`checked` only). */
async function createIn(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  c: Collection,
  dto: CreateRecordDto,
  checked: boolean,
): Promise<RecordView | "collection_changed"> {
  assertWritable(c);
  const v = validateRecordFields(c.record_schema, dto.fields);
  const status = dto.status ?? c.record_schema.stages[0]!;
  const meta = dto.field_meta ?? {};
  await assertRecordValid(deps, ws, c, v, status, dto.entity_id ?? null, meta);
  const now = deps.clock.now();
  const at = now.toISOString();
  const r: CollectionRecord = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    collection_id: c.id,
    fields: v.fields,
    status,
    field_meta: meta,
    entity_id: dto.entity_id ?? null,
    drifted: false,
    search_text: recordSearchText(v.fields),
    created_by: p.identityId,
    updated_by: p.identityId,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const write = { record: r, change: recordChangeOf(p, null, r, "record.created") };
  const records = deps.stores.records;
  const inserted = await withCapacityInWrite(
    deps.capacity,
    ws,
    "records",
    () => records.insert(write),
    records.insertClaiming && ((claim) => records.insertClaiming!(write, claim, checked ? c.version : null)),
    (result) => result === "collection_not_found",
  );
  if (inserted === "collection_changed") return inserted;
  if (inserted === "collection_not_found") throw notFound("Collection");
  await emit(deps, ws.id, "record.created", p, { collection_id: c.id, record_id: r.id, version: 1 });
  return toRecordView(r);
}

/** Creates that find their collection changed under them this many times in a row are refused (409). */
const CREATE_ATTEMPTS = 5;

/**
 * Where the store's insert checks the collection's version (ADR 058), a create runs against the
 * collection as this process last read it (no read: that was a round trip of every create), and
 * reads it again when the insert finds it changed, or before a refusal that a stale copy may
 * have caused (a schema or a status changed since): every answer is the current collection's.
 */
export async function createRecord(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  cid: string,
  dto: CreateRecordDto,
): Promise<RecordView> {
  assertCanWrite(p, "change records");
  const { collections, records } = deps.stores;
  const known = deps.capacity && records.insertClaiming && collections.known?.bind(collections);
  if (!known) {
    const created = await createIn(deps, p, ws, await findCollection(deps, ws, cid), dto, false);
    if (created === "collection_changed") throw new Error("A create checked no version, yet its collection changed");
    return created;
  }
  let c = await known(ws.id, cid);
  let fresh = false;
  for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
    if (!c) throw notFound("Collection");
    try {
      const created = await createIn(deps, p, ws, c, dto, true);
      if (created !== "collection_changed") return created;
      c = await known(ws.id, cid, true);
    } catch (e) {
      if (fresh || !isAppError(e) || (e.code !== "VALIDATION_FAILED" && e.code !== "CONFLICT")) throw e;
      const now = await known(ws.id, cid, true);
      if (now?.version === c!.version) throw e;
      c = now;
    }
    fresh = true;
  }
  throw conflict("Cannot create the record: its collection kept changing; try again");
}

/** One checked write of a record's next state; a stale version is a 409 with the current one. */
async function writeRecord(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  before: CollectionRecord,
  next: CollectionRecord,
  type: RecordChangeType,
  outcome: RecordOutcome | null = null,
) {
  const result = await deps.stores.records.update({ record: next, change: recordChangeOf(p, before, next, type, outcome) });
  if (result === "not_found") throw recordNotFound();
  if (result === "version_conflict") {
    const now = await deps.stores.records.get(ws.id, next.collection_id, next.id);
    if (!now) throw recordNotFound();
    throw versionConflict("record", now.version);
  }
  await emit(deps, ws.id, type, p, { collection_id: next.collection_id, record_id: next.id, version: next.version });
  return next;
}

function nextState(deps: CollectionDeps, p: Principal, r: CollectionRecord, over: Partial<CollectionRecord>): CollectionRecord {
  const fields = over.fields ?? r.fields;
  return {
    ...r,
    ...over,
    fields,
    search_text: recordSearchText(fields),
    version: r.version + 1,
    updated_at: deps.clock.now().toISOString(),
    updated_by: p.identityId,
  };
}

export async function updateRecord(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  cid: string,
  rid: string,
  dto: UpdateRecordDto,
  expected: number | undefined,
): Promise<RecordView> {
  const c = await writableCollection(deps, p, ws, cid);
  const r = await findRecord(deps, ws, cid, rid);
  if (expected !== undefined && expected !== r.version) throw versionConflict("record", r.version);
  const v = dto.fields ? patchRecordFields(c.record_schema, r.fields, dto.fields) : { fields: r.fields, errors: [], entityRefs: [] };
  const meta: Record<string, FieldMeta> = { ...r.field_meta };
  for (const [k, m] of Object.entries(dto.field_meta ?? {})) {
    if (m === null) delete meta[k];
    else meta[k] = m;
  }
  const status = dto.status ?? r.status;
  const entityId = dto.entity_id === undefined ? r.entity_id : dto.entity_id;
  // Only what this write touches is held to the current schema and stages: a record that an
  // earlier schema edit left behind can still be edited piecemeal (the doctor lists it).
  const keys = Object.keys(dto.fields ?? {});
  const touches = (path: string) => keys.some((k) => path === `/fields/${k}` || path.startsWith(`/fields/${k}/`));
  const touched: ValidatedFields = {
    ...v,
    errors: v.errors.filter((e) => touches(e.path)),
    entityRefs: v.entityRefs.filter((ref) => touches(ref.path)),
  };
  const metaGiven = Object.fromEntries(Object.entries(dto.field_meta ?? {}).filter(([, m]) => m !== null));
  await assertRecordValid(deps, ws, c, touched, dto.status ?? null, dto.entity_id ?? null, metaGiven);
  const next = nextState(deps, p, r, {
    fields: v.fields,
    field_meta: meta,
    status,
    entity_id: entityId,
    drifted: dto.drifted ?? r.drifted,
  });
  return toRecordView(await writeRecord(deps, p, ws, r, next, "record.updated"));
}

export async function recordOutcome(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  cid: string,
  rid: string,
  dto: RecordOutcomeDto,
  expected: number | undefined,
) {
  const c = await writableCollection(deps, p, ws, cid);
  const r = await findRecord(deps, ws, cid, rid);
  if (expected !== undefined && expected !== r.version) throw versionConflict("record", r.version);
  if (dto.status !== undefined) {
    const problem = stageProblem(c.record_schema, dto.status);
    if (problem) throw validationFailed("Invalid outcome", [problem]);
  }
  const now = deps.clock.now().toISOString();
  const outcome: RecordOutcome = {
    outcome: dto.outcome,
    value: dto.value ?? null,
    note: dto.note ?? null,
    occurred_at: dto.occurred_at ? new Date(Date.parse(dto.occurred_at)).toISOString() : now,
  };
  const next = nextState(deps, p, r, { status: dto.status ?? r.status });
  return { outcome, record: toRecordView(await writeRecord(deps, p, ws, r, next, "record.outcome", outcome)) };
}

/** `dry_run=true`: what deleting would remove. Otherwise the deletion, at `expected` when given. */
export async function deleteRecord(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  cid: string,
  rid: string,
  q: { dry_run?: QueryBool },
  expected: number | undefined,
): Promise<{ dry_run: boolean; removed: RecordRemoval }> {
  if (parseBool("dry_run", q.dry_run)) {
    assertCanWrite(p, "delete a record");
    await findCollection(deps, ws, cid);
    const plan = await deps.stores.records.deletePlan(ws.id, cid, rid);
    if (!plan) throw recordNotFound();
    return { dry_run: true, removed: plan };
  }
  await writableCollection(deps, p, ws, cid);
  const result = await deps.stores.records.delete(ws.id, cid, rid, expected ?? null);
  if (result === "not_found") throw recordNotFound();
  if (result === "version_conflict") throw versionConflict("record", (await findRecord(deps, ws, cid, rid)).version);
  await releaseCapacity(deps.capacity, ws, "records");
  await emit(deps, ws.id, "record.deleted", p, { collection_id: cid, record_id: rid });
  return { dry_run: false, removed: result };
}

export type { RecordViewName };
