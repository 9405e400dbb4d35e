import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";

/**
 * What crosses the API of `POST /topics/import` (docs/decisions/064-markdown-import.md): the
 * statuses an import may give, the limits it holds to, and its report, the same for a dry run.
 */

/** What imported topics arrive as: never `reviewed` (Knowledge is made by review). */
export const IMPORT_STATUSES = ["draft", "proposed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const IMPORT_OUTCOMES = ["created", "updated", "suggested", "unchanged", "skipped"] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/** Bounds of one import, beside the archive's size (IMPORT_LIMIT_BYTES). */
export const TOPIC_IMPORT_LIMITS = {
  /** Files in the archive, of any kind (folders not counted). */
  maxFiles: 10_000,
  /** One Markdown file, in bytes (a topic's body is at most 200,000 characters). */
  maxMarkdownBytes: 1024 * 1024,
  /** All Markdown files together, in bytes. */
  maxMarkdownTotalBytes: 128 * 1024 * 1024,
  /** What a `.tar.gz` may expand to, in bytes. */
  maxExpandedBytes: 4 * 1024 * 1024 * 1024,
  /** Problems listed in an `IMPORT_INVALID` answer (the count says how many there were). */
  maxProblems: 100,
  /** Unresolved links listed per file. */
  maxUnresolvedListed: 20,
} as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const strict = { additionalProperties: false } as const;
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const ImportFileLine = Type.Object(
  {
    path: Type.String({ description: "The file's path in the archive." }),
    outcome: literalUnion(IMPORT_OUTCOMES, {
      description:
        "`created`: a new topic; `updated`: an existing draft or proposed topic took the file's title, body and tags (a new version); `suggested`: the topic is reviewed, so a suggested edit (proposal) was opened and the reviewed text stands until an owner or admin merges it; `unchanged`: nothing to write; `skipped`: not imported (see `reason`).",
    }),
    reason: Nullable(Type.String({ description: "Why the file was skipped or is unchanged, in words." })),
    slug: Nullable(Type.String({ description: "The topic's slug (front matter `slug`, else derived from the path)." })),
    title: Nullable(Type.String()),
    topic_id: Nullable(Type.String({ description: "The topic's id; null for a topic a dry run would create." })),
    proposal_id: Nullable(Type.String({ description: "The suggested edit opened (`suggested`); null on a dry run." })),
    links: Count("Links of the file that name another Markdown file of the archive (each target once)."),
    unresolved_links: Type.Array(Type.String(), {
      description: "Links to Markdown files the archive does not hold (at most 20 listed); they stay in the text as written.",
    }),
    warnings: Type.Array(Type.String(), { description: "What was not taken from the file (a folder name too long to be a tag, ...)." }),
  },
  strict,
);
export type ImportFileLine = Static<typeof ImportFileLine>;

export const TopicImportReport = Type.Object(
  {
    dry_run: Type.Boolean({ description: "True when nothing was written: the report says what the import would do." }),
    status: literalUnion(IMPORT_STATUSES, { description: "The status created topics get." }),
    counts: Type.Object(
      {
        created: Count("Topics created."),
        updated: Count("Existing draft or proposed topics changed."),
        suggested: Count("Suggested edits opened on reviewed topics."),
        unchanged: Count("Files whose topic already says the same."),
        skipped: Count("Files not imported: not Markdown, hidden, or their topic is archived."),
      },
      strict,
    ),
    relations: Type.Object(
      {
        type: Type.Literal("references", { description: "The type every relation of an import has." }),
        created: Count("Relations added for links between the files."),
        unchanged: Count("Relations the workspace already had."),
        skipped: Count("Links not made relations (see `skipped_reason`)."),
        skipped_reason: Nullable(Type.String()),
      },
      strict,
    ),
    files: Type.Array(ImportFileLine, { description: "One line per file of the archive, in the archive's order." }),
  },
  strict,
);
export type TopicImportReport = Static<typeof TopicImportReport>;
