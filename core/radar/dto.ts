import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { CreateTopicDto, TopicSlugSchema, TRUST_VERDICTS, UpdateTopicDto } from "../topics/mod.ts";
import { MONITOR_INTERVALS, MONITOR_STATES, PAUSE_REASONS, RUN_STATES } from "./model.ts";
import { CompanyFilter, CRITERION_KINDS, PersonFilter } from "./criterion-filter.ts";

/** `GET …/radar/criteria/{criterionSlug}`: a criterion, read from its topic. */
export const CriterionView = Type.Object({
  slug: Type.String({ description: "The topic's slug." }),
  title: Type.String({ description: "The topic's title." }),
  kind: literalUnion(CRITERION_KINDS),
  filter: Type.Union([CompanyFilter, PersonFilter], { description: "A company filter, or a person filter, as `kind` says." }),
  version: Type.Integer({ minimum: 1, description: "The topic's version: `If-Match` / `expected_version` of a revision." }),
  trust: literalUnion(TRUST_VERDICTS, { description: "The topic's trust verdict." }),
});
export type CriterionView = Static<typeof CriterionView>;

/** `PATCH …/radar/criteria/{criterionSlug}`: a new version of the criterion's topic. */
export const ReviseCriterionDto = Type.Object(
  {
    filter: Type.Optional(
      Type.Union([CompanyFilter, PersonFilter], {
        description:
          "Replaces the filter whole; it must be a filter of the criterion's kind (a person field in a company criterion is a 400). The block is rewritten in place; the rest of the body is kept byte for byte.",
      }),
    ),
    title: UpdateTopicDto.properties.title,
    expected_version: UpdateTopicDto.properties.expected_version,
  },
  {
    additionalProperties: false,
    description: "Omitted fields stay. The kind cannot change: write another criterion.",
  },
);
export type ReviseCriterionDto = Static<typeof ReviseCriterionDto>;

// ---- Searches, runs, traces and monitors ----

const Id = Type.String({ format: "uuid" });
const At = Type.String({ format: "date-time" });
const Nullable = <T extends TSchema>(s: T, description?: string) => Type.Union([s, Type.Null()], description ? { description } : {});

export const MAX_RESULTS = { default: 100, min: 1, max: 1_000 } as const;
const MaxResults = (description: string) => Type.Integer({ minimum: MAX_RESULTS.min, maximum: MAX_RESULTS.max, description });

export const MonitorDto = Type.Object(
  {
    interval: literalUnion(MONITOR_INTERVALS, { description: "How often the search re-runs once its first run has completed." }),
    budget_credits: Type.Integer({
      minimum: 1,
      maximum: 1_000_000_000,
      description: "The most the monitor's runs may charge per calendar month (UTC); each run is priced within what is left.",
    }),
  },
  { additionalProperties: false },
);

export const NewCriterionDto = Type.Object(
  {
    title: CreateTopicDto.properties.title,
    kind: literalUnion(CRITERION_KINDS),
    filter: Type.Union([CompanyFilter, PersonFilter], { description: "A filter of `kind`." }),
    slug: Type.Optional(TopicSlugSchema),
  },
  { additionalProperties: false, description: "Written as a new topic (a Note tagged `radar-criterion`); a taken `slug` is a 409." },
);

export const OpenSearchDto = Type.Object(
  {
    criterion: Type.Optional(NewCriterionDto),
    criterion_slug: Type.Optional(TopicSlugSchema),
    collection_id: Type.Optional(Type.String({
      format: "uuid",
      description: "An active collection of this workspace for the results; omitted: a new `pipeline` collection.",
    })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: "\\S", description: "Default: the criterion's title." })),
    max_results: Type.Optional(MaxResults(`How many results a run may write (default ${MAX_RESULTS.default}).`)),
    monitor: Type.Optional(MonitorDto),
  },
  {
    additionalProperties: false,
    description: "Exactly one of `criterion` (a new one) and `criterion_slug` (an existing one).",
  },
);
export type OpenSearchDto = Static<typeof OpenSearchDto>;

export const PriceRunDto = Type.Object(
  {
    max_results: Type.Optional(MaxResults("Default: the search's `max_results`.")),
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, description: "How long the quote holds (default 900)." })),
  },
  { additionalProperties: false },
);
export type PriceRunDto = Static<typeof PriceRunDto>;

export const QuoteView = Type.Object({
  id: Id,
  unit_credits: Type.Integer({ minimum: 0, description: "Credits per result created or updated." }),
  max_results: Type.Integer({ minimum: 1 }),
  estimated_results: Type.Integer({ minimum: 0, description: "min(max_results, matches now)." }),
  max_credits: Type.Integer({ minimum: 0, description: "estimated_results × unit_credits: what `start` holds, the most the run charges." }),
  criterion_version: Type.Integer({ minimum: 1 }),
  created_at: At,
  expires_at: At,
});

export const RunResultsView = Type.Object({
  matched: Type.Integer({ minimum: 0, description: "Prospects read from the directory." }),
  created: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
  unchanged: Type.Integer({ minimum: 0, description: "Already in the collection as found: free." }),
});

export const RunView = Type.Object({
  id: Id,
  search_id: Id,
  collection_id: Id,
  criterion_slug: Type.String(),
  kind: literalUnion(CRITERION_KINDS),
  monitor_id: Nullable(Id, "The monitor that started the run."),
  state: literalUnion(RUN_STATES),
  quote: Nullable(QuoteView),
  results: RunResultsView,
  hold_credits: Type.Integer({ minimum: 0 }),
  charged_credits: Type.Integer({ minimum: 0, description: "(created + updated) × unit_credits, at most the quote's max_credits." }),
  released_credits: Type.Integer({ minimum: 0 }),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  created_at: At,
  updated_at: At,
  started_at: Nullable(At),
  finished_at: Nullable(At),
});
export type RunView = Static<typeof RunView>;

export const SearchView = Type.Object({
  id: Id,
  name: Type.String(),
  criterion_slug: Type.String(),
  kind: literalUnion(CRITERION_KINDS),
  collection_id: Id,
  max_results: Type.Integer({ minimum: 1 }),
  created_at: At,
});
export type SearchView = Static<typeof SearchView>;

export const MonitorView = Type.Object({
  id: Id,
  search_id: Id,
  interval: literalUnion(MONITOR_INTERVALS),
  state: literalUnion(MONITOR_STATES),
  paused_reason: Nullable(literalUnion(PAUSE_REASONS)),
  budget_credits: Type.Integer({ minimum: 1 }),
  spent_credits: Type.Integer({ minimum: 0, description: "Charged by the monitor's runs this period." }),
  period_start: At,
  next_run_at: Nullable(At, "Null until the first run completes, and while paused."),
});
export type MonitorView = Static<typeof MonitorView>;

export const OpenedSearch = Type.Object({
  search: SearchView,
  run: RunView,
  criterion: CriterionView,
  monitor: Nullable(MonitorView),
});
export type OpenedSearch = Static<typeof OpenedSearch>;

export const TraceStepView = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  type: Type.String({ description: "`run.priced`, `run.started`, `provider.page`, …; `run.completed|failed|cancelled` last." }),
  at: At,
  data: Type.Record(Type.String(), Type.Unknown()),
});
export const TraceView = Type.Object({ steps: Type.Array(TraceStepView) });
export type TraceView = Static<typeof TraceView>;
