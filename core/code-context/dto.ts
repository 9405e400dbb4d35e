import { type Static, Type } from "@sinclair/typebox";
import { UUID_PATTERN } from "../kernel/ids.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { APPROVED_VIA, TOPIC_STATUSES, TRUST_VERDICTS } from "../topics/mod.ts";

/**
 * What crosses code context's API: the bodies and answers of match-files, mark-drift, retrieve,
 * the repo index, the audit and the code-host webhook, with the limits their schemas state.
 */

export const MAX_MATCH_PATHS = 500;

const strict = { additionalProperties: false } as const;

export const FilePathSchema = Type.String({
  minLength: 1,
  maxLength: 1024,
  pattern: "^[^/]",
  description: "A repo-relative file path, e.g. `src/billing/invoice.ts` (no leading slash; a leading `./` is ignored).",
});

/** `POST /topics/match-files`: topics listed per file (ADR 038: every answer bounded). */
export const LIMIT_PER_FILE = { default: 20, max: 200 } as const;

/** The two shapes of a match-files answer: `full` repeats each topic's head per file, `compact` sends it once. */
export const MATCH_FILES_VIEWS = ["full", "compact"] as const;
export type MatchFilesView = (typeof MATCH_FILES_VIEWS)[number];

const MATCH_ORDER = "reviewed first, then proposed, then draft; within a verdict, drifted first, then the most recently updated";

export const MatchFilesDto = Type.Object(
  {
    paths: Type.Array(FilePathSchema, { minItems: 1, maxItems: MAX_MATCH_PATHS, description: `1 to ${MAX_MATCH_PATHS} paths.` }),
    repo_id: Type.Optional(
      Type.String({ pattern: UUID_PATTERN, description: "Only topics linked to this repo; without it, topics of any repo (or none)." }),
    ),
    limit_per_file: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIMIT_PER_FILE.max,
        description:
          `How many topics each file lists, its first in match order (default ${LIMIT_PER_FILE.default}). Each file's \`total\` counts all the topics matching it: a list was cut when \`total\` is greater than its length.`,
      }),
    ),
    view: Type.Optional(
      literalUnion(MATCH_FILES_VIEWS, {
        description:
          "`full` (default): each file lists its topics with their heads (slug, title, trust verdict), repeated for every file a topic matches. `compact`: each topic's head once, in the top-level `topics`, and each file lists `{ id, matched_anchors }`.",
      }),
    ),
  },
  strict,
);

export type MatchFilesDto = Static<typeof MatchFilesDto>;

/** What an agent needs to know of a matched topic before it reads it: who vouches for it, and whether it still holds. */
export const MatchedTopicHead = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  trust: literalUnion(TRUST_VERDICTS),
  status: literalUnion(TOPIC_STATUSES),
  drifted: Type.Boolean(),
  stale: Type.Boolean(),
  approved_via: Type.Union([literalUnion(APPROVED_VIA), Type.Null()]),
});

export type MatchedTopicHead = Static<typeof MatchedTopicHead>;

const MatchedAnchors = Type.Array(Type.String(), { description: "The topic's anchors that match this file." });

export const MatchedTopic = Type.Object({ ...MatchedTopicHead.properties, matched_anchors: MatchedAnchors });

export type MatchedTopic = Static<typeof MatchedTopic>;

const FilePath = Type.String({ description: "The path as matched (without a leading `./`)." });
const FileTotal = Type.Integer({
  minimum: 0,
  description: "How many topics match this file in all: more than it lists when `limit_per_file` cut its list.",
});
const FilesDoc = "One entry per distinct requested path, in request order.";
const Truncated = Type.Boolean({
  description: "More than 5,000 topics were candidates and only the first 5,000 (in list order) were matched.",
});

export const MatchFilesFullResult = Type.Object(
  {
    view: Type.Literal("full"),
    files: Type.Array(
      Type.Object({
        path: FilePath,
        total: FileTotal,
        topics: Type.Array(MatchedTopic, { description: `At most \`limit_per_file\`: ${MATCH_ORDER}.` }),
      }),
      { description: FilesDoc },
    ),
    truncated: Truncated,
  },
  { description: "View `full`: each file with its topics' heads." },
);

export type MatchFilesFullResult = Static<typeof MatchFilesFullResult>;

export const MatchFilesCompactResult = Type.Object(
  {
    view: Type.Literal("compact"),
    topics: Type.Array(MatchedTopicHead, {
      description: `Each topic some file lists, once, in match order (${MATCH_ORDER}).`,
    }),
    files: Type.Array(
      Type.Object({
        path: FilePath,
        total: FileTotal,
        matches: Type.Array(Type.Object({ id: Type.String({ description: "A topic of `topics`." }), matched_anchors: MatchedAnchors }), {
          description: "At most `limit_per_file`, in match order.",
        }),
      }),
      { description: FilesDoc },
    ),
    truncated: Truncated,
  },
  { description: "View `compact`: each topic's head once, and per file the ids of its topics." },
);

export type MatchFilesCompactResult = Static<typeof MatchFilesCompactResult>;

export const MatchFilesResult = Type.Union([MatchFilesFullResult, MatchFilesCompactResult], {
  description: "Per file the topics whose anchors match it, in the shape `view` asked for (and names).",
});

export type MatchFilesResult = Static<typeof MatchFilesResult>;

export const MAX_DRIFT_PATHS = 1_000;

export const MarkDriftDto = Type.Object(
  {
    paths: Type.Array(FilePathSchema, {
      minItems: 1,
      maxItems: MAX_DRIFT_PATHS,
      description: `The changed files, 1 to ${MAX_DRIFT_PATHS}.`,
    }),
    commit: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, pattern: "^\\S+$", description: "The commit that changed them (kept as evidence)." }),
    ),
    repo_id: Type.Optional(
      Type.String({ pattern: UUID_PATTERN, description: "Only topics linked to this repo; without it, topics of any repo (or none)." }),
    ),
  },
  strict,
);

export type MarkDriftDto = Static<typeof MarkDriftDto>;

export const MarkDriftResult = Type.Object({
  marked: Type.Array(Type.Object({ id: Type.String(), slug: Type.String() }), { description: "The topics marked drifted, in list order." }),
  count: Type.Integer(),
  truncated: Type.Boolean({ description: "More than 5,000 topics were candidates; only the first 5,000 were considered." }),
});

export type MarkDriftResult = Static<typeof MarkDriftResult>;

/**
 * `POST /topics/retrieve`: a context bundle for a coding agent, within a token budget. Decisions
 * (docs/decisions/011-retrieve-and-audit.md): candidates come from the files (anchors), the
 * question (each meaningful word searched on its own, a topic scoring by the words it holds), and
 * one hop of relations from the best of those; reviewed knowledge outranks the rest at equal
 * relevance. A token is counted as 4 characters. A topic already given to the same session at
 * the same version is left out (unless `include_delivered`); a changed one is sent again.
 */
export const DEFAULT_BUDGET_TOKENS = 4_000;

export const MAX_BUDGET_TOKENS = 100_000;

export const RetrieveDto = Type.Object(
  {
    question: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: "What the agent is working on, in words." })),
    paths: Type.Optional(Type.Array(FilePathSchema, { maxItems: 200, description: "Files the agent is looking at (repo-relative)." })),
    repo_id: Type.Optional(Type.String({ pattern: UUID_PATTERN, description: "Only anchors on this repo count." })),
    budget_tokens: Type.Optional(
      Type.Integer({
        minimum: 200,
        maximum: MAX_BUDGET_TOKENS,
        description: `Tokens the bundle may fill (a token is counted as 4 characters); default ${DEFAULT_BUDGET_TOKENS}.`,
      }),
    ),
    max_topics: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: "Default 20." })),
    include_notes: Type.Optional(Type.Boolean({ description: "Include Notes (drafts); default false." })),
    include_delivered: Type.Optional(Type.Boolean({ description: "Send topics this session already has again; default false." })),
  },
  { ...strict, description: "At least one of `question` and `paths`." },
);

export type RetrieveDto = Static<typeof RetrieveDto>;

export const RetrievedTopic = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  status: literalUnion(TOPIC_STATUSES),
  trust: literalUnion(TRUST_VERDICTS),
  drifted: Type.Boolean(),
  stale: Type.Boolean(),
  approved_via: Type.Union([literalUnion(APPROVED_VIA), Type.Null()]),
  version: Type.Integer(),
  reasons: Type.Array(Type.String(), { description: "Why it is here: `file:<path>`, `text:<word>`, `relation:<type>:<slug>`." }),
  score: Type.Number(),
  text: Type.String({ description: "The body, cut to fit the budget." }),
  truncated: Type.Boolean(),
});

export const RetrieveResult = Type.Object({
  session: Type.String(),
  budget_tokens: Type.Integer(),
  used_tokens: Type.Integer(),
  topics: Type.Array(RetrievedTopic),
  skipped_delivered: Type.Array(Type.String(), { description: "Slugs left out: this session already has them at this version." }),
  omitted: Type.Integer({ description: "Relevant topics that did not fit the budget or `max_topics`." }),
});

export type RetrieveResult = Static<typeof RetrieveResult>;

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const RepoIndexState = Type.Object({
  repo_id: Type.String(),
  indexed: Type.Boolean({ description: "Whether the repo has a file index yet." }),
  commit: Nullable(Type.String({ description: "The default branch's commit the index was read at." })),
  file_count: Type.Union([Type.Integer(), Type.Null()]),
  refreshed_at: Nullable(Type.String()),
});

export type RepoIndexState = Static<typeof RepoIndexState>;

export const RepoRefreshResult = Type.Object({
  ...RepoIndexState.properties,
  refresh: literalUnion(["queued", "done", "failed"] as const, {
    description:
      "`queued`: a background job will read the repo (the index above is the current one); `done`/`failed`: read at once (servers without a job queue).",
  }),
});

export type RepoRefreshResult = Static<typeof RepoRefreshResult>;

/**
 * `GET /topics/audit`: the context health of a workspace (docs/decisions/011-retrieve-and-audit.md).
 * Counts come from the stores' indexed filters; the anchor checks read at most
 * `MAX_ANCHORED_CHECKED` topics with anchors (most relevant first) and say when they sampled.
 */
/** How many pending proposals the audit counts before it says "capped". */
export const PROPOSAL_PAGE = 200;

export const MAX_ANCHORED_CHECKED = 1_000;

const Offender = Type.Object({ id: Type.String(), slug: Type.String(), title: Type.String(), detail: Type.Optional(Type.String()) });

export const AuditReport = Type.Object(
  {
    generated_at: Type.String(),
    score: Type.Integer({ minimum: 0, maximum: 100, description: "100 is healthy. See the operation's description for the formula." }),
    topics: Type.Object({
      total: Type.Integer({ description: "Topics that are not archived." }),
      reviewed: Type.Integer(),
      drifted: Type.Integer(),
      stale: Type.Integer(),
      no_owner: Type.Integer(),
    }),
    anchors: Type.Object({
      topics_checked: Type.Integer(),
      sampled: Type.Boolean({
        description: `True when more than ${MAX_ANCHORED_CHECKED} topics have anchors and only the first were checked.`,
      }),
      zero: Type.Integer({ description: "Anchors matching no file of their repo's default branch." }),
      overbroad: Type.Integer(),
      orphaned: Type.Integer({ description: "Anchors whose topic has no repo (unlinked, or the repo was removed): nothing to match." }),
    }),
    proposals: Type.Object({
      pending_over_7_days: Type.Integer(),
      capped: Type.Boolean({ description: `True when the count stopped at ${PROPOSAL_PAGE}.` }),
    }),
    offenders: Type.Object({
      drifted: Type.Array(Offender),
      stale: Type.Array(Offender),
      zero_anchors: Type.Array(Offender),
      overbroad_anchors: Type.Array(Offender),
      orphaned_anchors: Type.Array(Offender),
      no_owner: Type.Array(Offender),
      old_proposals: Type.Array(
        Type.Object({ id: Type.String(), topic_id: Type.String(), summary: Type.String(), created_at: Type.String() }),
      ),
    }),
  },
  {
    description:
      "Context health: what makes the workspace's knowledge less trustworthy, with the worst offenders (at most 10 of each kind).",
  },
);

export type AuditReport = Static<typeof AuditReport>;

export const CodeHostWebhookResult = Type.Object({
  received: Type.Literal(true),
  event: Type.String(),
  outcome: literalUnion(["pong", "processed", "ignored", "duplicate"] as const, {
    description:
      "`pong` for a ping; `processed` for a push; `duplicate` for a delivery id seen before (nothing done again); `ignored` for other events.",
  }),
  repos: Type.Integer({
    description: "Linked repos (in any workspace) whose default branch the push updated: their file index is refreshed.",
  }),
  drifted: Type.Integer({ description: "Topics marked drifted." }),
});

export type CodeHostWebhookResult = Static<typeof CodeHostWebhookResult>;
