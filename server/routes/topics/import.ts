import { Type } from "@sinclair/typebox";
import { validationFailed } from "../../../core/kernel/mod.ts";
import { IMPORT_STATUSES, importMarkdownTopics, TOPIC_IMPORT_LIMITS, TopicImportReport } from "../../../core/topics/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { booleanParam, enumParam } from "../../http/query-schemas.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { deprecationHeaders, WATCHERS_DEPRECATION } from "../../http/deprecations.ts";
import { importLimitOf } from "../../http/upload-limits.ts";
import { SlugParams } from "./table.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

/**
 * `POST /workspaces/{slug}/topics/import`: a `.tar.gz` or `.zip` of Markdown files, streamed in
 * as the request body, becomes topics (docs/decisions/064-markdown-import.md). The body is not
 * parsed as JSON: the route hands the stream to core, which reads the archive as it arrives.
 */
const TopicImportQuery = Type.Object(
  {
    dry_run: booleanParam("`true`: read and check everything and answer the same report, writing nothing. Default `false`."),
    status: enumParam(
      IMPORT_STATUSES,
      "What created topics arrive as: `draft` (default) or `proposed` (put up for review). Never reviewed.",
    ),
  },
  strict,
);

const MiB = 1024 * 1024;
const DESCRIPTION = [
  "Imports a `.tar.gz` or `.zip` of Markdown files (an Obsidian vault, an Outline or Notion export), sent as the request body (`Content-Type: application/gzip` or `application/zip`; the format is told by its first bytes). Each `.md`/`.markdown` file becomes a topic: title from front matter `title`, else the first `# ` heading, else the file name; tags from front matter `tags` and one per folder (normalised); slug from front matter `slug`, else derived from the path (folders and name; a slug another file already derives gets `-<8 hex of the path's SHA-256>`). The body is the file without its front matter; images stay links.",
  "Links between the files (`[x](other.md)`, `[[wikilinks]]`, Notion's `Name%20<id>.md`) become relations of type `references` (from the linking file to the linked one), which take scope `topics:write` over OAuth (without it they are reported skipped).",
  "Re-importing is idempotent: a topic is matched by slug; `unchanged` when equal, `updated` when a draft or proposed topic differs (a new version), `suggested` when a reviewed topic differs (a suggested edit is opened, the reviewed text stands). Files that are not Markdown, and hidden ones (`.obsidian/`, `__MACOSX/`), are `skipped` and listed.",
  `Everything is checked before anything is written: a problem in any file (bad front matter, a title over 200 characters, two files with one slug, ...) is a 400 \`IMPORT_INVALID\` listing the first ${TOPIC_IMPORT_LIMITS.maxProblems}, nothing written. An unreadable archive (not gzip or zip, corrupt, truncated) is a 400 \`ARCHIVE_INVALID\`; an entry with \`..\`, an absolute path or a link is a 400 \`ARCHIVE_UNSAFE_ENTRY\`, the whole archive refused. Larger than IMPORT_LIMIT_BYTES (default 1 GiB), more than ${TOPIC_IMPORT_LIMITS.maxFiles} files, a Markdown file over ${
    TOPIC_IMPORT_LIMITS.maxMarkdownBytes / MiB
  } MiB or all of them over ${TOPIC_IMPORT_LIMITS.maxMarkdownTotalBytes / MiB} MiB is a 413 \`PAYLOAD_TOO_LARGE\`.`,
  "Then every topic, suggested edit and relation is written in one transaction (PostgreSQL, the embedded store, memory); on MongoDB one by one, and running the same import again completes an interrupted one. A concurrent write of a slug it needs is a 409 (nothing written where there is a transaction). New topics count against the plan's topic limit (402 `PLAN_LIMIT_REACHED`).",
].join("\n\n");

/** Registered once per base path, as every topic route is: `/topics`, and the deprecated `/watchers`. */
export function topicImportRoutes(deps: ServerDeps, base: "/topics" | "/watchers") {
  const maxBytes = importLimitOf(deps.config);
  const alias = base === "/watchers";
  const scope = workspaceScope(deps, `${base.slice(1)}-import`, {
    headers: alias ? (url) => deprecationHeaders(WATCHERS_DEPRECATION, url) : undefined,
  });
  return scope.post(
    `${base}/import`,
    async ({ principal, workspace, query, body, set }) => {
      const stream = (body as { stream?: unknown } | undefined)?.stream;
      if (!(stream instanceof ReadableStream)) {
        throw validationFailed("Invalid body: send the archive's bytes (a .tar.gz or .zip), not JSON", [{
          path: "body",
          message: "an archive",
        }]);
      }
      const report = await importMarkdownTopics(deps.core, principal, workspace, stream, query, maxBytes);
      // A POST action answers 201, as search and retrieve do, a dry run too (docs/decisions/003-http-conventions.md).
      set.status = 201;
      return report;
    },
    {
      // The body is read by core as it streams in; an empty body reads as an empty stream.
      parse: ({ request }) => ({ stream: request.body ?? new Blob([]).stream() }),
      params: SlugParams,
      query: TopicImportQuery,
      response: { 201: TopicImportReport, ...errors(400, 401, 402, 403, 404, 409, 413) },
      detail: {
        ...authenticated,
        tags: [alias ? "watchers (deprecated)" : "topics"],
        summary: alias ? "Import Markdown files as topics (deprecated alias of /topics)" : "Import Markdown files as topics",
        ...(alias ? { deprecated: true } : {}),
        description: DESCRIPTION,
        requestBody: {
          required: true,
          content: {
            "application/gzip": { schema: { type: "string", format: "binary", description: "A gzip-compressed tar of Markdown files." } },
            "application/zip": { schema: { type: "string", format: "binary", description: "A zip of Markdown files." } },
          },
        },
      },
    },
  );
}
