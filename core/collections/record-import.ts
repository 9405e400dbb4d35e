import { assertCanWrite, type Principal } from "../access/mod.ts";
import { isCapacityRefusal } from "../kernel/capacity.ts";
import { emit } from "../events/mod.ts";
import { AppError, conflict, type ErrorDetail, notFound, versionConflict } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { findCollection } from "./collections.ts";
import type { Collection, CollectionRecord } from "./model.ts";
import type { CollectionDeps, RecordImportBatch, RecordImportUpdate, RecordWrite } from "./ports.ts";
import {
  type CsvColumns,
  csvColumns,
  csvIntent,
  type ImportRow,
  ndjsonIntent,
  type RowError,
  type RowErrorCode,
  type RowIntent,
} from "./record-import-rows.ts";
import { recordSearchText } from "./record-text.ts";
import { patchRecordFields, stageProblem, type ValidatedFields, validateRecordFields } from "./record-validation.ts";
import { recordChangeOf } from "./records.ts";

/**
 * Records in from a CSV or NDJSON file (docs/decisions/063-records-csv-and-ndjson.md), all or
 * nothing. Every row is checked as a create (or, with the id of one of the collection's records,
 * as an update) would check it, and the rows are handed to the store in batches that it applies as
 * one (`RecordStore.importRecords`): either in one reading, each chunk checked then handed over,
 * the first problem undoing what was handed (a store whose import runs beside the check's reads),
 * or in two, the whole file checked before it is read again as writes. Neither way holds the rows:
 * memory stays flat however long the file.
 */

export const IMPORT_FORMATS = ["csv", "ndjson"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
/** Default most rows of one import (IMPORT_MAX_ROWS). */
export const DEFAULT_IMPORT_MAX_ROWS = 100_000;
/** Row problems an IMPORT_INVALID answer lists: reading stops there. */
export const MAX_ROW_ERRORS = 100;
/** Rows checked together (one read of their records, one of their entities). */
const CHECK_CHUNK = 250;
/** Rows handed to the store at once. */
const WRITE_BATCH = 500;
/** Lines listed per reason a row was skipped. */
const SKIPPED_LINES = 20;

/** The file, from its first row, each time `rows()` is called (it may be read twice). */
export interface ImportSource {
  rows(): AsyncIterable<ImportRow>;
}

export interface ImportOptions {
  format: ImportFormat;
  dryRun: boolean;
  /** Open collections: cells become numbers, booleans, lists and objects where they read as one (CSV only). */
  infer: boolean;
  maxRows: number;
}

export interface ImportReport {
  dry_run: boolean;
  format: ImportFormat;
  /** Rows of the file (the CSV header not counted). */
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  skipped_reasons: { reason: string; count: number; lines: number[] }[];
}

export function importInvalid(errors: RowError[], more: boolean): AppError {
  const listed = errors.slice(0, MAX_ROW_ERRORS);
  return new AppError(
    "IMPORT_INVALID",
    `Cannot import: ${more ? `at least ${listed.length}` : listed.length} problem${listed.length === 1 ? "" : "s"} in the file ` +
      `(${more ? "the first " : ""}${listed.length} listed in row_errors); nothing was written`,
    listed.map((e) => ({ path: `line ${e.line}${e.column === null ? "" : `, ${e.column}`}`, message: `${e.code}: ${e.message}` })),
    { row_errors: listed },
  );
}

export function tooManyRows(max: number): AppError {
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `Cannot import more than ${max} rows at once (IMPORT_MAX_ROWS): split the file and send it as several imports, ` +
      "e.g. NDJSON batches of up to that many lines; each is all or nothing",
    [{ path: "body", message: `more than ${max} rows` }],
    { max_rows: max },
  );
}

/** Reads the source as row intents: the CSV header first (its problems as an intent of their own). */
async function* intentsOf(c: Collection, source: ImportSource, opts: ImportOptions): AsyncGenerator<RowIntent> {
  let cols: CsvColumns | null = null;
  const schema = c.record_schema;
  for await (const row of source.rows()) {
    if ("problem" in row) {
      yield { ...blank(row.line), problems: [{ line: row.line, column: null, code: "MALFORMED_ROW", message: row.problem }] };
    } else if ("cells" in row) {
      if (!cols) {
        cols = csvColumns(schema, row.cells, row.line);
        if (cols.problems.length) yield { ...blank(row.line), problems: cols.problems, header: true } as RowIntent;
        continue;
      }
      yield csvIntent(schema, cols, row.line, row.cells, opts.infer);
    } else {
      yield ndjsonIntent(schema, row.line, row.value);
    }
  }
}

function blank(line: number): RowIntent {
  return {
    line,
    id: null,
    status: null,
    entityId: undefined,
    version: null,
    updatedAt: null,
    fields: {},
    columnOf: (f) => f,
    problems: [],
    empty: false,
  };
}
const isHeader = (i: RowIntent) => (i as { header?: boolean }).header === true;

/** A validation detail (`/fields/<name>/…`, `/status`, `/entity_id`) as a row error. */
function rowError(intent: RowIntent, d: ErrorDetail): RowError {
  const m = /^\/fields\/([^/]+)(\/.*)?$/.exec(d.path);
  const column = m ? intent.columnOf(m[1]!) : d.path === "/status" ? "status" : d.path === "/entity_id" ? "entity_id" : null;
  const code: RowErrorCode = d.message === "is required"
    ? "REQUIRED"
    : d.message.startsWith("is not a field")
    ? "UNKNOWN_FIELD"
    : d.message.includes("entity")
    ? "UNKNOWN_ENTITY"
    : d.path === "/status"
    ? "INVALID_STATUS"
    : d.path === "/fields"
    ? "TOO_LARGE"
    : "INVALID_VALUE";
  return { line: intent.line, column, code, message: m?.[2] ? `${m[2].slice(1)} ${d.message}` : d.message };
}

/** The state an update row gives record `r` (what `updateRecord` would make of it), with what is wrong. */
function updated(c: Collection, r: CollectionRecord, intent: RowIntent) {
  const v = patchRecordFields(c.record_schema, r.fields, intent.fields);
  // As updateRecord: only what the row touches is held to the current schema.
  const keys = Object.keys(intent.fields);
  const touches = (path: string) => keys.some((k) => path === `/fields/${k}` || path.startsWith(`/fields/${k}/`));
  const touched: ValidatedFields = {
    ...v,
    errors: v.errors.filter((e) => touches(e.path)),
    entityRefs: v.entityRefs.filter((ref) => touches(ref.path)),
  };
  if (intent.status !== null) {
    const stage = stageProblem(c.record_schema, intent.status);
    if (stage) touched.errors.push(stage);
  }
  const status = intent.status ?? r.status;
  const entityId = intent.entityId === undefined ? r.entity_id : intent.entityId;
  const same = status === r.status && entityId === r.entity_id && sameValue(v.fields, r.fields);
  return { v: touched, status, entityId, same };
}

/** A create row's fields and stage, checked as `createRecord` checks them. */
function created(c: Collection, intent: RowIntent) {
  const v = validateRecordFields(c.record_schema, intent.fields);
  const status = intent.status ?? c.record_schema.stages[0]!;
  if (intent.status !== null) {
    const stage = stageProblem(c.record_schema, intent.status);
    if (stage) v.errors.push(stage);
  }
  return { v, status, entityId: intent.entityId ?? null };
}

/** JSON equality, whatever the order of object keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => sameValue(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What reading the file without writing found. */
interface Checked {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: Map<string, { count: number; lines: number[] }>;
  errors: RowError[];
  /** The version each update row's record was read at: the writes are held to it. */
  versions: Map<string, number>;
}

/** A row that passed its checks: what writing it takes. */
interface Accepted {
  intent: RowIntent;
  /** The fields, stage and entity a create gets (an update's are computed on the record as written). */
  v: ValidatedFields;
  status: string;
  entityId: string | null;
  /** The row names a record of the collection (at `out.versions`); `same`: it would change nothing. */
  update: boolean;
  same: boolean;
}

const newChecked = (): Checked => ({ rows: 0, created: 0, updated: 0, unchanged: 0, skipped: new Map(), errors: [], versions: new Map() });

/**
 * Every row checked, in chunks (one read of their records, one of their entities each), into
 * `out`; each chunk's accepted rows yielded. Reading stops at the 100th problem; past `maxRows`
 * rows it throws the 413.
 */
async function* checking(
  deps: CollectionDeps,
  ws: Workspace,
  c: Collection,
  source: ImportSource,
  opts: ImportOptions,
  out: Checked,
): AsyncGenerator<Accepted[]> {
  const lineOfId = new Map<string, number>();
  let chunk: RowIntent[] = [];
  for await (const intent of intentsOf(c, source, opts)) {
    if (!isHeader(intent) && ++out.rows > opts.maxRows) throw tooManyRows(opts.maxRows);
    chunk.push(intent);
    if (chunk.length >= CHECK_CHUNK) {
      yield await checkChunk(deps, ws, c, chunk, out, lineOfId);
      chunk = [];
      if (out.errors.length >= MAX_ROW_ERRORS) return;
    }
  }
  if (chunk.length) yield await checkChunk(deps, ws, c, chunk, out, lineOfId);
}

/** The first reading of the two: every row checked and counted, nothing kept but the versions of the records to update. */
async function check(deps: CollectionDeps, ws: Workspace, c: Collection, source: ImportSource, opts: ImportOptions): Promise<Checked> {
  const out = newChecked();
  for await (const _ of checking(deps, ws, c, source, opts, out)) {
    // Counted into `out`.
  }
  return out;
}

async function checkChunk(
  deps: CollectionDeps,
  ws: Workspace,
  c: Collection,
  chunk: RowIntent[],
  out: Checked,
  lineOfId: Map<string, number>,
): Promise<Accepted[]> {
  const existing = await existingRecords(deps, ws, c, chunk);
  // Rows waiting for the entity check: `update` names the record's version, `same` an update that
  // changes nothing; `prior`, what reading the row found (a cell that is no value of its type):
  // the rest of the row is still checked, so that one answer lists all its problems.
  const pending: Accepted[] = [];
  // The chunk's problems, listed in line order at the end.
  const found: RowError[] = [];
  const errors = { push: (...e: RowError[]) => void found.push(...e) };
  for (const intent of chunk) {
    // Nothing more to check in a row that could not be read, or a header.
    if (isHeader(intent) || intent.problems.some((e) => e.column === null)) {
      errors.push(...intent.problems);
      continue;
    }
    if (intent.empty) {
      const s = out.skipped.get("empty row") ?? { count: 0, lines: [] };
      s.count++;
      if (s.lines.length < SKIPPED_LINES) s.lines.push(intent.line);
      out.skipped.set("empty row", s);
      continue;
    }
    const r = intent.id ? existing.get(intent.id) : undefined;
    if (!r) {
      const made = created(c, intent);
      pending.push({ intent, v: made.v, status: made.status, entityId: made.entityId, update: false, same: false });
      continue;
    }
    const earlier = lineOfId.get(r.id);
    if (earlier !== undefined) {
      errors.push(...intent.problems, {
        line: intent.line,
        column: "id",
        code: "DUPLICATE_ID",
        message: `names the record of line ${earlier} again`,
      });
      continue;
    }
    lineOfId.set(r.id, intent.line);
    const stale = (intent.version !== null && intent.version !== r.version) ||
      (intent.updatedAt !== null && Date.parse(intent.updatedAt) !== Date.parse(r.updated_at));
    if (stale) {
      errors.push(...intent.problems, {
        line: intent.line,
        column: intent.version !== null ? "version" : "updated_at",
        code: "VERSION_CONFLICT",
        message: `the record changed since (now version ${r.version}, updated_at ${r.updated_at})`,
      });
      continue;
    }
    const next = updated(c, r, intent);
    out.versions.set(r.id, r.version);
    pending.push({ intent, v: next.v, status: next.status, entityId: intent.entityId ?? null, update: true, same: next.same });
  }
  const kinds = await linkedEntityKinds(deps, ws, pending);
  const accepted: Accepted[] = [];
  for (const p of pending) {
    const details = [...p.v.errors];
    if (p.entityId && !kinds.has(p.entityId)) details.push({ path: "/entity_id", message: "is not an entity of this workspace" });
    for (const ref of p.v.entityRefs) {
      const kind = kinds.get(ref.id);
      if (kind === undefined) details.push({ path: ref.path, message: "is not an entity of this workspace" });
      else if (ref.kind !== null && kind !== ref.kind) details.push({ path: ref.path, message: `must be an entity of kind ${ref.kind}` });
    }
    // A cell that was no value of its type is missing from the fields checked: not "required" too.
    const read = new Set(p.intent.problems.map((e) => e.column));
    const all = [...p.intent.problems, ...details.map((d) => rowError(p.intent, d)).filter((e) => !read.has(e.column))];
    if (all.length) {
      errors.push(...all);
      if (p.update) out.versions.delete(p.intent.id!);
      continue;
    }
    if (!p.update) out.created++;
    else if (p.same) out.unchanged++;
    else out.updated++;
    accepted.push(p);
  }
  out.errors.push(...found.sort((a, b) => a.line - b.line));
  return accepted;
}

/** The records the chunk's rows name by id, by id. */
async function existingRecords(
  deps: CollectionDeps,
  ws: Workspace,
  c: Collection,
  chunk: RowIntent[],
): Promise<Map<string, CollectionRecord>> {
  const ids = [...new Set(chunk.filter((i) => i.id).map((i) => i.id!))];
  const existing = new Map<string, CollectionRecord>();
  for (let i = 0; i < ids.length; i += 200) {
    for (const r of await deps.stores.records.getMany(ws.id, c.id, ids.slice(i, i + 200))) existing.set(r.id, r);
  }
  return existing;
}

/** The kinds of the entities the pending rows link, by id, in one read. */
async function linkedEntityKinds(deps: CollectionDeps, ws: Workspace, pending: Accepted[]): Promise<Map<string, string>> {
  const wanted = new Set<string>();
  for (const p of pending) {
    if (p.entityId) wanted.add(p.entityId);
    for (const ref of p.v.entityRefs) wanted.add(ref.id);
  }
  const kinds = new Map<string, string>();
  const list = [...wanted];
  for (let i = 0; i < list.length; i += 1000) {
    for (const e of await deps.stores.entities.getMany(ws.id, list.slice(i, i + 1000))) kinds.set(e.id, e.kind);
  }
  return kinds;
}

/** The second pass: the rows again, as the store's batches of writes. */
async function* writesOf(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  c: Collection,
  source: ImportSource,
  opts: ImportOptions,
  versions: Map<string, number>,
  done: { created: string[]; updated: { id: string; version: number }[] },
): AsyncGenerator<RecordImportBatch> {
  let batch: RecordImportBatch = { creates: [], updates: [] };
  let now = deps.clock.now();
  for await (const intent of intentsOf(c, source, opts)) {
    if (isHeader(intent) || intent.problems.length) {
      throw new Error(`The import file changed between its two readings (line ${intent.line})`);
    }
    if (intent.empty) continue;
    const version = intent.id ? versions.get(intent.id) : undefined;
    if (version === undefined) batch.creates.push(createWrite(p, ws, c, intent, now));
    else batch.updates.push(updateOf(deps, p, c, intent, version, done));
    if (batch.creates.length + batch.updates.length >= WRITE_BATCH) {
      for (const w of batch.creates) done.created.push(w.record.id);
      yield batch;
      batch = { creates: [], updates: [] };
      now = deps.clock.now();
    }
  }
  for (const w of batch.creates) done.created.push(w.record.id);
  if (batch.creates.length + batch.updates.length) yield batch;
}

/**
 * The one reading of a store whose import runs beside the check's reads (`RecordStore.importAlongside`):
 * each chunk is checked, then its writes handed over while the next is read. Once a problem is
 * found nothing more is handed over, and the end throws it (400, or the 413), so the store keeps
 * none of what it was given.
 */
async function* checkedWrites(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  c: Collection,
  source: ImportSource,
  opts: ImportOptions,
  out: Checked,
  done: { created: string[]; updated: { id: string; version: number }[] },
): AsyncGenerator<RecordImportBatch> {
  for await (const accepted of checking(deps, ws, c, source, opts, out)) {
    if (out.errors.length) continue;
    const now = deps.clock.now();
    const batch: RecordImportBatch = { creates: [], updates: [] };
    for (const a of accepted) {
      if (a.update) batch.updates.push(updateOf(deps, p, c, a.intent, out.versions.get(a.intent.id!)!, done));
      else batch.creates.push(createWriteOf(p, ws, c, a, now));
    }
    for (const w of batch.creates) done.created.push(w.record.id);
    yield batch;
  }
  if (out.errors.length) throw importInvalid(out.errors, out.errors.length >= MAX_ROW_ERRORS);
}

function createWrite(p: Principal, ws: Workspace, c: Collection, intent: RowIntent, now: Date): RecordWrite {
  return createWriteOf(p, ws, c, created(c, intent), now);
}

/** The write of a create row checked already (its fields validated, its stage and entity known). */
function createWriteOf(
  p: Principal,
  ws: Workspace,
  c: Collection,
  made: { v: ValidatedFields; status: string; entityId: string | null },
  now: Date,
): RecordWrite {
  const at = now.toISOString();
  const record: CollectionRecord = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    collection_id: c.id,
    fields: made.v.fields,
    status: made.status,
    field_meta: {},
    entity_id: made.entityId,
    drifted: false,
    search_text: recordSearchText(made.v.fields),
    created_by: p.identityId,
    updated_by: p.identityId,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  return { record, change: recordChangeOf(p, null, record, "record.created") };
}

function updateOf(
  deps: CollectionDeps,
  p: Principal,
  c: Collection,
  intent: RowIntent,
  version: number,
  done: { updated: { id: string; version: number }[] },
): RecordImportUpdate {
  return {
    id: intent.id!,
    version,
    next(current) {
      const u = updated(c, current, intent);
      if (u.same) return null;
      const fields = u.v.fields;
      const record: CollectionRecord = {
        ...current,
        fields,
        status: u.status,
        entity_id: u.entityId,
        search_text: recordSearchText(fields),
        version: current.version + 1,
        updated_at: deps.clock.now().toISOString(),
        updated_by: p.identityId,
      };
      done.updated.push({ id: record.id, version: record.version });
      return { record, change: recordChangeOf(p, current, record, "record.updated") };
    },
  };
}

function report(opts: ImportOptions, checked: Checked, counts: { created: number; updated: number; unchanged: number }): ImportReport {
  const skipped = [...checked.skipped.entries()].map(([reason, s]) => ({ reason, count: s.count, lines: s.lines }));
  return {
    dry_run: opts.dryRun,
    format: opts.format,
    rows: checked.rows,
    created: counts.created,
    updated: counts.updated,
    unchanged: counts.unchanged,
    skipped: skipped.reduce((n, s) => n + s.count, 0),
    skipped_reasons: skipped,
  };
}

/** Events of a write this size go out this many at a time. */
const EMIT_CONCURRENCY = 64;

/**
 * POST …/records/import. Checks every row first (a problem anywhere: 400 `IMPORT_INVALID`, the
 * first 100 listed, nothing written; more than `maxRows` rows: 413); a dry run answers there. Then
 * the plan's units of the creates are claimed and the rows written in one all-or-nothing import;
 * each written record's event follows, as its create or update would publish it.
 */
export async function importRecords(
  deps: CollectionDeps,
  p: Principal,
  ws: Workspace,
  cid: string,
  source: ImportSource,
  opts: ImportOptions,
): Promise<ImportReport> {
  assertCanWrite(p, "import records");
  const c = await findCollection(deps, ws, cid);
  if (c.status === "archived") {
    throw conflict("Cannot change records: the collection is archived (restore it first)", { current_status: "archived" });
  }
  const { records } = deps.stores;
  const gate = deps.capacity;
  const inWrite = gate !== undefined && records.insertClaiming !== undefined;
  // One reading where the store's import runs beside the check's reads and claims in its own write.
  const alongside = !opts.dryRun && records.importAlongside === true && (inWrite || gate === undefined);
  const checked = alongside ? newChecked() : await check(deps, ws, c, source, opts);
  if (!alongside) {
    if (checked.errors.length) throw importInvalid(checked.errors, checked.errors.length >= MAX_ROW_ERRORS);
    if (opts.dryRun) return report(opts, checked, checked);
  }

  const claimed = !inWrite && gate && checked.created > 0 ? checked.created : 0;
  if (claimed) await gate!.claim(ws, "records", claimed);
  const done = { created: [] as string[], updated: [] as { id: string; version: number }[] };
  let outcome;
  try {
    outcome = await records.importRecords(ws.id, c.id, {
      collectionVersion: c.version,
      batches: alongside
        ? checkedWrites(deps, p, ws, c, source, opts, checked, done)
        : writesOf(deps, p, ws, c, source, opts, checked.versions, done),
      claim: inWrite ? { kind: "records", limit: await gate!.limit(ws, "records") } : null,
    });
  } catch (e) {
    if (claimed) await gate!.release(ws, "records", claimed);
    throw e;
  }
  if (!(typeof outcome === "object" && "written" in outcome)) {
    if (claimed) await gate!.release(ws, "records", claimed);
    if (outcome === "collection_not_found") throw notFound("Collection");
    if (outcome === "collection_changed") {
      throw conflict(
        "Cannot import: the collection changed while the file was read (its schema or status); nothing was written, send it again",
      );
    }
    if (isCapacityRefusal(outcome)) {
      const limit = await gate!.limit(ws, "records");
      throw gate!.refusal(ws, "records", limit ?? outcome.used, outcome.used);
    }
    if (outcome.current_version === null) {
      throw conflict(`Cannot import: record ${outcome.conflict} was deleted meanwhile; nothing was written`);
    }
    const e = versionConflict(`record ${outcome.conflict}`, outcome.current_version);
    throw new AppError(e.code, `${e.message}; nothing was written`, [], { ...e.meta, record_id: outcome.conflict });
  }
  // The events, as each write would publish them (a few at a time: no list of them all is built).
  const publish = async <T>(list: T[], event: (x: T) => [string, Record<string, unknown>]) => {
    for (let i = 0; i < list.length; i += EMIT_CONCURRENCY) {
      await Promise.all(
        list.slice(i, i + EMIT_CONCURRENCY).map((x) => {
          const [type, data] = event(x);
          return emit(deps, ws.id, type, p, data);
        }),
      );
    }
  };
  await publish(done.created, (id) => ["record.created", { collection_id: c.id, record_id: id, version: 1 }]);
  await publish(done.updated, (u) => ["record.updated", { collection_id: c.id, record_id: u.id, version: u.version }]);
  return report(opts, checked, outcome.written);
}
