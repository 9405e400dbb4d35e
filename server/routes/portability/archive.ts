import { Type } from "@sinclair/typebox";
import { assertCanImportWorkspace, exportWorkspace, importWorkspace, WorkspaceImportReport } from "../../../core/portability/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { spoolBody } from "../../http/import-body.ts";
import { streamedBody } from "../../http/raw-body.ts";
import { booleanParam } from "../../http/query-schemas.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { importLimitOf } from "../../http/upload-limits.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

/**
 * A whole workspace out and in as one archive (issue #25; the format: docs/archive-format.md,
 * ADR 065; the import's plan and id rules: ADR 068).
 */

const tags = ["workspaces"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const ImportQuery = Type.Object(
  { dry_run: booleanParam("`true`: verify and plan, answer the same report, write nothing. Default `false`.") },
  strict,
);

/** Errors as `detail.responses` entries (a route whose answer is not JSON declares its responses there). */
const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    Object.entries(errors(...statuses)).map((
      [status, schema],
    ) => [status, { description: schema.description ?? "Error", content: { "application/json": { schema } } }]),
  );

const EXPORT_DESCRIPTION = [
  "The workspace as one archive (format version 1, docs/archive-format.md): a gzip'd tar of `data/<kind>.<NNNN>.ndjson` parts in replay order, `topics/<slug>.md` for people, and `manifest.json` last (it holds every other file's SHA-256, known only at the end). Built while it is sent: the server's memory stays flat whatever the size. Owners and admins; over OAuth `work:read` is enough.",
  "Never in it: API keys, OAuth clients' secrets, tokens, sessions, webhook secrets, the platform operator key, credentials in clone URLs.",
  "Consistency (the manifest's `consistency`): on PostgreSQL and the embedded store every kind is read in one read-only `REPEATABLE READ` transaction, held while the archive streams (`snapshot`; on the embedded store, one connection, other requests wait until the export ends); on MongoDB and the in-memory store each kind is read as of its own moment (`per_kind`). Either way an object written during the export is in it whole or not at all.",
  "A failure while streaming (or the client leaving) ends the tar before its manifest: such a file is refused by the import.",
].join("\n\n");

const IMPORT_DESCRIPTION = [
  "An archive made by `GET /workspaces/{slug}/export` (here or on another server, any backend), sent as the body (`application/gzip`), streamed to a temporary file as it arrives: at most IMPORT_LIMIT_BYTES (default 1 GiB), larger is a 413 with nothing written. Owners only.",
  "First everything is checked, writing nothing: format version, every file's size and SHA-256 against the manifest, every line against its kind's schema, the references between kinds. Any problem is a 400 `IMPORT_INVALID` listing the first 100 in `details` (`<file>:<line><JSON pointer>`) and in `archive_problems` (`file`, `line`, `path`, `message`, with `truncated`).",
  "Then the plan (docs/decisions/068-workspace-import.md): per kind in replay order, each line against what this workspace holds. The same id (or the id an earlier run of this import derived for it) is the same object; else the same natural key (members by e-mail, areas by name, topics by slug, entities by kind and dedup key, …) is, under this workspace's id; an existing object is `unchanged` when equal, else `skipped` (an import never overwrites). Anything else is `created`, keeping its id, or, when the archive's own workspace is on this server, under an id derived from this workspace, the kind and the archive id; every reference follows.",
  "Members are matched by e-mail; a missing person is invited (the member add: its event and its mail), never given a key. The workspace line changes nothing here (slug, name, plan, settings stay). The credit ledger is imported as history only: this workspace's balance is untouched (`ledger`), only the platform operator grants credits.",
  "`dry_run=true` stops after the plan and answers the same report. Import is idempotent: the same archive again reports everything `unchanged`; an import interrupted anywhere (the client gone, the server killed) is completed by sending it again, nothing duplicated.",
].join("\n\n");

export function workspaceArchiveRoutes(deps: ServerDeps) {
  const core = deps.core;
  const limitBytes = importLimitOf(deps.config);
  return workspaceScope(deps, "workspace-archive")
    .use(streamedBody)
    .get(
      "/export",
      async ({ principal, workspace }) => {
        const out = await exportWorkspace(core, principal, workspace, { serviceVersion: deps.build.version });
        return new Response(out.body, {
          headers: {
            "content-type": "application/gzip",
            "content-disposition": `attachment; filename="${out.filename}"`,
            "cache-control": "no-store",
            "x-archive-consistency": out.consistency,
          },
        });
      },
      {
        params: SlugParams,
        // Responses are declared in `detail` alone: the OpenAPI plugin writes a `response` schema as JSON.
        detail: {
          ...authenticated,
          tags,
          summary: "Export the workspace as an archive (owner/admin)",
          description: EXPORT_DESCRIPTION,
          responses: {
            200: {
              description: 'The archive, streamed (`Content-Disposition: attachment; filename="<slug>-<UTC timestamp>.wks.tar.gz"`).',
              headers: {
                "x-archive-consistency": {
                  description: "`snapshot` or `per_kind`, as the manifest says.",
                  schema: { type: "string", enum: ["snapshot", "per_kind"] },
                },
              },
              content: { "application/gzip": { schema: { type: "string", format: "binary" } } },
            },
            ...errorResponses(401, 403, 404),
          },
        },
      },
    )
    .post(
      "/import",
      async ({ principal, workspace, query, request, set }) => {
        // Refused before a byte of the upload is stored.
        assertCanImportWorkspace(principal);
        const body = await spoolBody(request, limitBytes);
        try {
          const report = await importWorkspace(core, principal, workspace, body, { dryRun: query.dry_run === true });
          // A POST action answers 201, a dry run too (docs/decisions/003-http-conventions.md).
          set.status = 201;
          return report;
        } finally {
          await body.dispose();
        }
      },
      {
        // The body is spooled by the handler (import-body.ts), never parsed here.
        streamedBody: true,
        params: SlugParams,
        query: ImportQuery,
        response: { 201: WorkspaceImportReport, ...errors(400, 401, 402, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Import an archive into the workspace (owner)",
          description: IMPORT_DESCRIPTION,
          requestBody: {
            required: true,
            content: {
              "application/gzip": { schema: { type: "string", format: "binary", description: "A workspace archive (.wks.tar.gz)." } },
            },
          },
        },
      },
    );
}
