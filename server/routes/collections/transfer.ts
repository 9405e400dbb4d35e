import { Type } from "@sinclair/typebox";
import { checkIdempotencyKey, idempotent } from "../../../core/credits/mod.ts";
import {
  DEFAULT_IMPORT_MAX_ROWS,
  exportRecords,
  IMPORT_FORMATS,
  type ImportFormat,
  importRecords,
  type ImportReport,
  MAX_ROW_ERRORS,
} from "../../../core/collections/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { IdempotencyHeaders } from "../../http/idempotent-route.ts";
import { collectEvery, spoolBody } from "../../http/import-body.ts";
import { streamedBody } from "../../http/raw-body.ts";
import { booleanParam, enumParam, fieldNamesParam, timestampParam, uuidParam } from "../../http/query-schemas.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { CollectionParams } from "./schemas.ts";
import { importLimitOf } from "../../http/upload-limits.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

/**
 * Records out and in as CSV or NDJSON (issue #25, docs/decisions/063-records-csv-and-ndjson.md):
 * the export streams a keyset page at a time; the import spools its body to a file, then checks
 * every row and writes all or nothing.
 */

const tags = ["records"];
const INJECTION =
  "A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (after any apostrophes) is written with a `'` in front, so that a spreadsheet shows it as text instead of running it as a formula (CSV injection); numbers are written as numbers. The import takes that `'` off again, so a file reads back as it was written.";

const ExportQuery = Type.Object(
  {
    format: enumParam(IMPORT_FORMATS, "`csv` (default) or `ndjson`."),
    status: Type.Optional(Type.String({ description: "Only records in this stage." })),
    entity_id: uuidParam("Only records linked to this entity."),
    drifted: booleanParam("Only drifted (true) or not drifted (false) records."),
    updated_after: timestampParam("RFC 3339 date-time: only records changed after it."),
    fields: fieldNamesParam("Comma-separated field names: the fields to write, in this order (CSV columns after the record's own)."),
  },
  strict,
);

const ImportQuery = Type.Object(
  {
    format: enumParam(IMPORT_FORMATS, "`csv` or `ndjson`; default by the body's content type (`application/x-ndjson`: ndjson), else csv."),
    dry_run: booleanParam("true: check every row and answer what the import would do, writing nothing."),
    infer: booleanParam(
      "CSV into an open collection (or undeclared fields): true reads a cell as a number, then true/false, then a JSON list or object, then text; default every such cell is text.",
    ),
  },
  strict,
);

/** What a 400 `IMPORT_INVALID` carries besides the envelope's fields (documented in the description). */
export const RowErrorSchema = Type.Object({
  line: Type.Integer({ description: "The line of the file the row starts on (the CSV header is line 1)." }),
  column: Type.Union([Type.String(), Type.Null()], { description: "The CSV header name or NDJSON key; null: the whole row." }),
  code: Type.String({
    description:
      "MALFORMED_ROW, UNKNOWN_COLUMN, DUPLICATE_COLUMN, UNKNOWN_FIELD, INVALID_VALUE, REQUIRED, INVALID_STATUS, UNKNOWN_ENTITY, INVALID_ID, DUPLICATE_ID, VERSION_CONFLICT or TOO_LARGE.",
  }),
  message: Type.String(),
});

const ImportAnswer = Type.Object({
  dry_run: Type.Boolean(),
  format: Type.Union(IMPORT_FORMATS.map((f) => Type.Literal(f))),
  rows: Type.Integer({ description: "Rows read (the CSV header not counted)." }),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer({ description: "Rows naming a record they would not change." }),
  skipped: Type.Integer(),
  skipped_reasons: Type.Array(
    Type.Object({
      reason: Type.String({ description: "e.g. `empty row`." }),
      count: Type.Integer(),
      lines: Type.Array(Type.Integer(), { description: "The first 20 such lines." }),
    }),
  ),
});

const contentFormat = (contentType: string | null): ImportFormat | undefined =>
  contentType && /^application\/(x-)?(ndjson|jsonl|jsonlines)\b/i.test(contentType) ? "ndjson" : undefined;

/** The export's text as a byte stream, pulled as the client reads: one page of text ahead at most. */
function pulledStream(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const it = chunks[Symbol.asyncIterator]();
  // A page is 1,000 records: a collection every 5 (import-body.ts, `collectEvery`).
  const collect = collectEvery(5);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(enc.encode(next.value));
        collect();
      } catch (e) {
        controller.error(e);
      }
    },
    async cancel() {
      await it.return?.(undefined);
    },
  });
}

export function recordTransferRoutes(deps: ServerDeps) {
  const core = deps.core;
  const maxRows = deps.config.importMaxRows ?? DEFAULT_IMPORT_MAX_ROWS;
  const limitBytes = importLimitOf(deps.config);
  return workspaceScope(deps, "record-transfer")
    .use(streamedBody)
    .get(
      "/collections/:id/records/export",
      async ({ workspace, params, query }) => {
        const out = await exportRecords(core, workspace, params.id, query);
        const body = pulledStream(out.chunks);
        return new Response(body, {
          headers: {
            "content-type": out.contentType,
            "content-disposition": `attachment; filename="${out.filename}"`,
            "cache-control": "no-store",
          },
        });
      },
      {
        params: CollectionParams,
        query: ExportQuery,
        // Responses are declared in `detail` alone: the OpenAPI plugin writes a `response` schema as JSON.
        detail: {
          ...authenticated,
          tags,
          summary: "Export records as CSV or NDJSON",
          description:
            "The records the list would show with the same filters (`status`, `entity_id`, `drifted`, `updated_after`), oldest first, streamed: the store is read a page at a time as the client reads, whatever the size. " +
            "**CSV** (RFC 4180, UTF-8, CRLF, `text/csv`): a header row `id, status, entity_id, updated_at`, then the fields: `fields` as asked, else the declared ones in schema order, then (open collections, or `additional_fields`) the others in the order they are first met reading the records oldest first (a first reading of the names; a field first set by a write made during the export is left out). " +
            "A field named like a record column is headed `fields.<name>`. Lists and objects are written as JSON text, true/false as `true`/`false`, no value as an empty cell. " +
            `${INJECTION} ` +
            "**NDJSON** (`application/x-ndjson`): one JSON object per line, `{id, status, entity_id, version, updated_at, fields}` (`fields` only those asked). " +
            "Either file imports back as it is (POST …/records/import): into this collection as updates held to the `updated_at` (or `version`) they carry, into another as new records. " +
            "Not a snapshot: a record written while the export runs may or may not be in it, never twice, never half.",
          responses: {
            200: {
              description: "The file, streamed (`Content-Disposition: attachment`).",
              content: {
                "text/csv": { schema: { type: "string" } },
                "application/x-ndjson": { schema: { type: "string" } },
              },
            },
            ...Object.fromEntries(
              Object.entries(errors(400, 401, 404)).map((
                [status, schema],
              ) => [status, { description: schema.description ?? "Error", content: { "application/json": { schema } } }]),
            ),
          },
        },
      },
    )
    .post(
      "/collections/:id/records/import",
      async ({ principal, workspace, params, query, request, set }) => {
        const format = (query.format as ImportFormat | undefined) ?? contentFormat(request.headers.get("content-type")) ?? "csv";
        const key = checkIdempotencyKey(request.headers.get("idempotency-key"));
        const body = await spoolBody(request, limitBytes);
        try {
          const dryRun = query.dry_run === true;
          const infer = query.infer === true;
          const answer = await idempotent<ImportReport>(
            core,
            {
              workspace_id: workspace.id,
              scope: "records.import",
              key,
              request: { collection_id: params.id, format, dry_run: dryRun, infer, body_sha256: body.sha256 },
            },
            async () => ({
              status: 201,
              body: await importRecords(core, principal, workspace, params.id, body.rows(format), { format, dryRun, infer, maxRows }),
            }),
          );
          set.status = answer.status;
          if (answer.replayed) set.headers["idempotent-replayed"] = "true";
          return answer.body;
        } finally {
          await body.dispose();
        }
      },
      {
        // The body is read as a stream by the handler (import-body.ts), never parsed here.
        streamedBody: true,
        params: CollectionParams,
        query: ImportQuery,
        headers: IdempotencyHeaders,
        response: { 201: ImportAnswer, ...errors(400, 401, 402, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Import records from CSV or NDJSON",
          description: "The body is the file (`text/csv` or `application/x-ndjson`), streamed. " +
            "**CSV**: a header row maps columns to fields by name (`fields.<name>` too); `id`, `status`, `entity_id`, `updated_at`, `version` (or `expected_version`) are the record's own. " +
            "Declared fields convert from the cell's text by type: integer and number from decimal text, boolean from `true`/`false`, a list from JSON text, others (text, date, datetime, enum, url, email, entity) as the text; an empty cell is no value. " +
            "An open collection's cells stay text unless `infer=true`. " +
            `A leading \`'\` before a formula character is taken off (what the export adds against CSV injection). ` +
            "**NDJSON**: one object per line, `{id?, status?, entity_id?, fields?, version?, updated_at?}`, values as JSON. " +
            "A row whose `id` names a record of this collection updates it (the columns of the file replace its values; an empty cell removes one; what the file does not name stays), only while it is at the row's `version` or `updated_at` when given (else `VERSION_CONFLICT`), and one that changes nothing is `unchanged`; any other row creates a new record (with a new id: an export of another collection imports as copies). Blank rows are skipped. " +
            `Every row is checked as the record's create or update would check it, all before anything is written: any problem is a 400 \`IMPORT_INVALID\` listing the first ${MAX_ROW_ERRORS} in \`row_errors\` (\`line\`, \`column\`, \`code\`, \`message\`), and nothing is written. ` +
            `All or nothing, up to IMPORT_MAX_ROWS rows (default ${DEFAULT_IMPORT_MAX_ROWS}); a longer file is a 413 (send it as several imports, e.g. NDJSON batches). ` +
            "The plan's limit on records applies to the whole import (402 `PLAN_LIMIT_REACHED`, nothing written). " +
            "On PostgreSQL and the embedded store the import is one transaction; on MongoDB it is staged, then applied, and a reader may see part of it while it applies (a refusal still writes nothing). " +
            "Each written record publishes `record.created` or `record.updated`, as its create or update does. `dry_run=true` answers the same counts and errors without writing (the plan's limit is not checked). " +
            "`Idempotency-Key` makes a retry safe: the first answer is replayed for the same key and file.",
          requestBody: {
            required: true,
            content: {
              "text/csv": { schema: { type: "string" } },
              "application/x-ndjson": { schema: { type: "string" } },
            },
          },
        },
      },
    );
}
