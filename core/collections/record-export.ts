import { parseEnum, type QueryBool } from "../kernel/query-params.ts";
import { badQuery } from "../kernel/query-params.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { findCollection } from "./collections.ts";
import { csvLine, headerLine } from "./csv-cells.ts";
import type { Collection, CollectionRecord } from "./model.ts";
import type { CollectionDeps, RecordQuery, Slice } from "./ports.ts";
import { parseFieldNames } from "./record-projection.ts";
import { fieldHeader } from "./record-import-rows.ts";
import { listFilter } from "./record-query.ts";
import { compileFilter } from "./record-filter.ts";
import { acceptsUndeclared, admitsField } from "./record-schema.ts";
import { IMPORT_FORMATS, type ImportFormat } from "./record-import.ts";

/**
 * Records out as CSV or NDJSON (docs/decisions/063-records-csv-and-ndjson.md), streamed: the
 * store is read a keyset page at a time as the client takes the text, so memory stays flat
 * whatever the collection's size. Oldest first (creation order), so that a file imported into
 * another collection creates its records in the same order.
 */

export interface RecordExportQuery {
  format?: string;
  status?: string;
  entity_id?: string;
  drifted?: QueryBool;
  updated_after?: string;
  fields?: string;
}

/**
 * Records read per store page: more than a listing's 200 (the port's bound for pages a client
 * asks for), as a file is read whole and a page's round trip is most of what a row costs.
 */
const PAGE = 1000;

/** The record columns of the CSV, before its fields. */
export const CSV_RECORD_COLUMNS = ["id", "status", "entity_id", "updated_at"] as const;

export interface RecordExport {
  format: ImportFormat;
  contentType: string;
  /** `<collection name>-<UTC timestamp>.<csv|ndjson>`, safe as a file name. */
  filename: string;
  /** The text, a page of records at a time (the CSV's header first). */
  chunks: AsyncIterable<string>;
}

/**
 * The records of the query, page after page, oldest first: the next page is asked for as soon as
 * a page arrives, so the store reads it while this one is written out (one page ahead at most).
 */
async function* pages(deps: CollectionDeps, ws: Workspace, c: Collection, base: Omit<RecordQuery, "after">) {
  const read = (after: RecordQuery["after"]): Promise<Slice<CollectionRecord>> =>
    deps.stores.records.query(ws.id, c.id, { ...base, after });
  let pending: Promise<Slice<CollectionRecord>> | null = read(null);
  try {
    while (pending) {
      const page: Slice<CollectionRecord> = await pending;
      pending = page.has_more && page.items.length ? read({ id: page.items.at(-1)!.id }) : null;
      // Awaited on the next turn; a failure meanwhile must not go unhandled.
      pending?.catch(() => {});
      if (page.items.length) yield page.items;
    }
  } finally {
    await pending?.catch(() => {});
  }
}

/**
 * The CSV's fields: `fields` as asked, else the declared ones in schema order, then (where the
 * schema accepts undeclared fields) those the records hold, in the order they are first met
 * reading the records oldest first. That takes a first reading of the names: a field first set by
 * a write made between the two readings is left out.
 */
async function csvFields(deps: CollectionDeps, ws: Workspace, c: Collection, asked: string[] | null, base: Omit<RecordQuery, "after">) {
  if (asked) return asked;
  const names = Object.keys(c.record_schema.fields);
  if (!acceptsUndeclared(c.record_schema)) return names;
  const seen = new Set(names);
  for await (const page of pages(deps, ws, c, base)) {
    for (const r of page) {
      for (const k of Object.keys(r.fields)) {
        if (!seen.has(k)) {
          seen.add(k);
          names.push(k);
        }
      }
    }
  }
  return names;
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

/** A collection name as part of a file name: letters, digits, `-` and `_` (others become `-`). */
function fileStem(name: string): string {
  return name.normalize("NFKD").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "records";
}

/**
 * GET …/records/export. Checks the query (and that the collection exists) before any text is
 * sent, so a bad request is an error answer, not a cut-off file.
 */
export async function exportRecords(deps: CollectionDeps, ws: Workspace, cid: string, q: RecordExportQuery): Promise<RecordExport> {
  const format = parseEnum("format", q.format, IMPORT_FORMATS) ?? "csv";
  const c = await findCollection(deps, ws, cid);
  const asked = parseFieldNames("fields", q.fields);
  if (asked) {
    const unknown = asked.filter((n) => !admitsField(c.record_schema, n));
    if (unknown.length) throw badQuery("fields", `not fields of this collection: ${unknown.join(", ")}`);
    if (new Set(asked).size !== asked.length) throw badQuery("fields", "a field is named twice");
  }
  const filter = listFilter(q);
  const base = {
    filter: filter ? compileFilter(c.record_schema, filter) : null,
    sort: { operand: null, dir: "asc" as const },
    limit: PAGE,
  };
  const filename = `${fileStem(c.name)}-${stamp(deps.clock.now())}.${format}`;
  if (format === "ndjson") {
    return { format, contentType: "application/x-ndjson; charset=utf-8", filename, chunks: ndjson(deps, ws, c, base, asked) };
  }
  return { format, contentType: "text/csv; charset=utf-8; header=present", filename, chunks: csv(deps, ws, c, base, asked) };
}

async function* csv(deps: CollectionDeps, ws: Workspace, c: Collection, base: Omit<RecordQuery, "after">, asked: string[] | null) {
  const fields = await csvFields(deps, ws, c, asked, base);
  yield headerLine([...CSV_RECORD_COLUMNS, ...fields.map(fieldHeader)]);
  const row: unknown[] = new Array(CSV_RECORD_COLUMNS.length + fields.length);
  for await (const page of pages(deps, ws, c, base)) {
    let text = "";
    for (const r of page) {
      row[0] = r.id;
      row[1] = r.status;
      row[2] = r.entity_id;
      row[3] = r.updated_at;
      for (let i = 0; i < fields.length; i++) row[4 + i] = r.fields[fields[i]!];
      text += csvLine(row);
    }
    yield text;
  }
}

/** One NDJSON line: what the import reads back (`version` and `updated_at` hold an update to this state). */
export function ndjsonLine(r: CollectionRecord, fields: string[] | null): string {
  const values = fields ? Object.fromEntries(fields.filter((f) => f in r.fields).map((f) => [f, r.fields[f]])) : r.fields;
  return `${
    JSON.stringify({ id: r.id, status: r.status, entity_id: r.entity_id, version: r.version, updated_at: r.updated_at, fields: values })
  }\n`;
}

async function* ndjson(deps: CollectionDeps, ws: Workspace, c: Collection, base: Omit<RecordQuery, "after">, asked: string[] | null) {
  for await (const page of pages(deps, ws, c, base)) {
    let text = "";
    for (const r of page) text += ndjsonLine(r, asked);
    yield text;
  }
}
