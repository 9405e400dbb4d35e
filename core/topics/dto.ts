import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { UUID_PATTERN } from "../kernel/ids.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { TOPIC_STATUSES } from "./governance.ts";
import { MAX_TAG_LENGTH } from "./tag-name.ts";
import { MAX_TOPIC_SLUG_LENGTH, TOPIC_SLUG_PATTERN } from "./topic-slug.ts";
import {
  APPROVED_VIA,
  Drift,
  Governance,
  MAX_ANCHORS_PER_TOPIC,
  MAX_BODY_LENGTH,
  MAX_SUMMARY_LENGTH,
  MAX_TAGS_PER_TOPIC,
  MAX_TITLE_LENGTH,
  PROPOSAL_STATUSES,
  RELATION_TYPES,
  RELATION_TYPES_DOC,
  TOPIC_EVENT_TYPES,
  TOPIC_KINDS,
  TOPIC_ORIGINS,
  TRUST_VERDICTS,
} from "./model.ts";

/**
 * What crosses the topics API: request bodies, views and results (TypeBox schemas, which validate
 * requests and generate the OpenAPI document). The records they come from are in model.ts.
 */

const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const strict = { additionalProperties: false } as const;

export const TopicEventView = Type.Object({
  id: Type.String(),
  type: literalUnion(TOPIC_EVENT_TYPES),
  topic_id: Type.String(),
  topic_slug: Type.String(),
  repo_id: Nullable(Type.String()),
  version: Type.Integer(),
  actor_id: Nullable(Type.String()),
  via: literalUnion(APPROVED_VIA),
  at: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown()),
});
export type TopicEventView = Static<typeof TopicEventView>;

export const TopicRevisionView = Type.Object({
  version: Type.Integer(),
  type: literalUnion(TOPIC_EVENT_TYPES),
  actor_id: Nullable(Type.String()),
  via: literalUnion(APPROVED_VIA),
  at: Timestamp,
  slug: Type.String(),
  title: Type.String(),
  body: Type.String(),
  tags: Type.Array(Type.String()),
  status: literalUnion(TOPIC_STATUSES),
});
export type TopicRevisionView = Static<typeof TopicRevisionView>;

// ---- the anchor report of a topic view (computed by code-context: anchor-validation.ts) ----

export const ANCHOR_RATINGS = ["ok", "overbroad", "zero"] as const;
export type AnchorRating = (typeof ANCHOR_RATINGS)[number];

export const AnchorCheck = Type.Object({
  pattern: Type.String(),
  matches: Type.Integer({ description: "Files of the default branch the pattern matches." }),
  rating: literalUnion(ANCHOR_RATINGS, {
    description:
      "`zero`: matches nothing (or cannot be compiled); `overbroad`: matches more than max(500, 20% of the repo's files); else `ok`.",
  }),
  samples: Type.Array(Type.String(), { description: "Up to 5 matching paths, in path order." }),
  warnings: Type.Array(Type.String()),
});
export type AnchorCheck = Static<typeof AnchorCheck>;

export const AnchorValidation = Type.Object(
  {
    repo_id: Type.String(),
    commit: Nullable(
      Type.String({ description: "The commit of the file index the anchors were checked against; null when there is none." }),
    ),
    file_count: Nullable(Type.Integer()),
    refreshed_at: Nullable(Type.String({ description: "When the repo's file index was last read from the code host." })),
    anchors: Type.Array(AnchorCheck, { description: "One entry per anchor, in the topic's order; empty when the repo has no file index." }),
    warnings: Type.Array(Type.String(), { description: "E.g. the repo has no file index yet, or could not be read." }),
  },
  {
    description:
      "Advisory check of the topic's anchors against its linked repo's default branch (never blocks the write). Present on create and update responses when the topic has a `repo_id`.",
  },
);
export type AnchorValidation = Static<typeof AnchorValidation>;

/** Projections of a topic in responses. */
export const TOPIC_VIEWS = ["full", "summary", "compact"] as const;
export type TopicViewName = (typeof TOPIC_VIEWS)[number];

export const TopicView = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    body: Type.Optional(Type.String({ description: "View `full` only." })),
    excerpt: Type.Optional(Type.String({ description: "View `summary`: the body's first 280 characters." })),
    tags: Type.Optional(Type.Array(Type.String())),
    area_id: Type.Optional(Nullable(Type.String())),
    repo_id: Type.Optional(Nullable(Type.String())),
    anchors: Type.Optional(Type.Array(Type.String())),
    kind: Type.Optional(literalUnion(TOPIC_KINDS)),
    origin: Type.Optional(literalUnion(TOPIC_ORIGINS)),
    source_url: Type.Optional(Nullable(Type.String())),
    owner_id: Type.Optional(Nullable(Type.String())),
    author_id: Type.Optional(Nullable(Type.String())),
    status: literalUnion(TOPIC_STATUSES),
    trust: literalUnion(TRUST_VERDICTS),
    classification: Type.Object({ status: literalUnion(TRUST_VERDICTS) }),
    governance: Type.Optional(Governance),
    approved_via: Type.Optional(Nullable(literalUnion(APPROVED_VIA))),
    stale: Type.Boolean({ description: "Reviewed, but not re-vouched within the workspace's review interval." }),
    drifted: Type.Boolean({ description: "Code the topic is anchored to changed since it was last vouched for." }),
    drift: Type.Optional(Nullable(Drift)),
    merged_into: Type.Optional(Nullable(Type.String({ description: "Id of the topic this one was merged into." }))),
    version: Type.Integer(),
    created_at: Type.Optional(Timestamp),
    updated_at: Timestamp,
    redirected_from: Type.Optional(Type.String({ description: "The old slug the request named, when it was a redirect." })),
    history: Type.Optional(Type.Array(TopicRevisionView, { description: "With `history=true`: revisions, newest first." })),
    anchor_validation: Type.Optional(AnchorValidation),
    orphaned_anchors: Type.Optional(
      Type.Array(Type.String(), {
        description: "With `include_orphaned=true`: anchors matching no file of the repo's current file index.",
      }),
    ),
  },
  {
    description:
      "Views: `full` (everything, with body; default for a single topic), `summary` (everything but the body, with an `excerpt`; default for lists and search), `compact` (id, slug, title, status, trust, classification, stale, drifted, version, updated_at).",
  },
);
export type TopicView = Static<typeof TopicView>;

// ---- request bodies ----

export const TopicSlugSchema = Type.String({
  pattern: TOPIC_SLUG_PATTERN,
  minLength: 1,
  maxLength: MAX_TOPIC_SLUG_LENGTH,
  description: "Lowercase letters, digits and single dashes, 1 to 80 characters.",
});
const TITLE_RULES = { minLength: 1, maxLength: MAX_TITLE_LENGTH, pattern: "\\S" } as const;
const TitleSchema = Type.String(TITLE_RULES);
const BodySchema = Type.String({ maxLength: MAX_BODY_LENGTH, description: "Markdown." });
export const TagNameInput = Type.String({
  minLength: 1,
  maxLength: MAX_TAG_LENGTH * 4,
  description: "Normalised server-side: trimmed, lowercase, whitespace runs become one dash; at most 64 characters after that.",
});
const TagsSchema = Type.Array(TagNameInput, { maxItems: MAX_TAGS_PER_TOPIC });
const IdRef = Type.String({ pattern: UUID_PATTERN });
const UrlSchema = Type.String({ pattern: "^https?://\\S+$", maxLength: 2000 });
export const AnchorsSchema = Type.Array(
  Type.String({
    minLength: 1,
    maxLength: 300,
    pattern: "^[^/\\s](?:.*\\S)?$",
    description:
      "A glob (picomatch syntax) relative to the repo root, e.g. `src/billing/**/*.ts`; no leading slash, no leading or trailing whitespace.",
  }),
  { maxItems: MAX_ANCHORS_PER_TOPIC, description: "Files of the linked repo (`repo_id`) this topic is about. Duplicates collapse." },
);

const editable = {
  title: TitleSchema,
  body: BodySchema,
  tags: TagsSchema,
  area_id: Nullable(IdRef),
  repo_id: Nullable(IdRef),
  anchors: AnchorsSchema,
  kind: literalUnion(TOPIC_KINDS),
  source_url: Nullable(UrlSchema),
};

export const CreateTopicDto = Type.Object(
  {
    title: editable.title,
    slug: Type.Optional(TopicSlugSchema),
    body: Type.Optional(editable.body),
    tags: Type.Optional(editable.tags),
    area_id: Type.Optional(editable.area_id),
    repo_id: Type.Optional(editable.repo_id),
    anchors: Type.Optional(editable.anchors),
    kind: Type.Optional(editable.kind),
    origin: Type.Optional(
      literalUnion(TOPIC_ORIGINS, { description: "Defaults to `auto` for a program (OAuth client, faceless key), else `manual`." }),
    ),
    source_url: Type.Optional(editable.source_url),
    status: Type.Optional(
      literalUnion(["draft", "proposed"] as const, { description: "`draft` (a Note, default) or `proposed` (up for review at once)." }),
    ),
  },
  { ...strict, description: "Without `slug`, one is derived from the title (`-2`, `-3`, ... when taken)." },
);
export type CreateTopicDto = Static<typeof CreateTopicDto>;

/**
 * The editable fields as a JSON Merge Patch (RFC 7396) names them: `null` removes a field, which
 * for a field a topic always has means its empty or default value (core/topics/merge-patch.ts,
 * REMOVED). The title cannot be removed, so it takes no `null`: the document says so, and a
 * request the document allows is never refused.
 */
const removable = {
  title: Type.String({ ...TITLE_RULES, description: "Cannot be removed: `null` is a 400, a topic always has a title." }),
  body: Type.Union([BodySchema, Type.Null()], { description: "Markdown; `null` empties it." }),
  tags: Type.Union([TagsSchema, Type.Null()], { description: "Replaces the tags whole; `null` removes them all (an empty list)." }),
  area_id: Type.Union([IdRef, Type.Null()], { description: "`null`: in no area." }),
  repo_id: Type.Union([IdRef, Type.Null()], { description: "`null`: linked to no repo." }),
  anchors: Type.Union([AnchorsSchema, Type.Null()], {
    description: "Replaces the anchors whole; `null` removes them all (an empty list).",
  }),
  kind: Type.Union([literalUnion(TOPIC_KINDS), Type.Null()], { description: "`null`: back to the default, `note`." }),
  source_url: Type.Union([UrlSchema, Type.Null()], { description: "`null`: no source." }),
};

export const UpdateTopicDto = Type.Object(
  {
    title: Type.Optional(removable.title),
    body: Type.Optional(removable.body),
    tags: Type.Optional(removable.tags),
    area_id: Type.Optional(removable.area_id),
    repo_id: Type.Optional(removable.repo_id),
    anchors: Type.Optional(removable.anchors),
    kind: Type.Optional(removable.kind),
    source_url: Type.Optional(removable.source_url),
    expected_version: Type.Optional(
      Type.Integer({ minimum: 1, description: "Or the `If-Match` header; a stale value is 409 VERSION_CONFLICT." }),
    ),
  },
  {
    ...strict,
    description:
      "A JSON Merge Patch (RFC 7396) of the content: a member sets a field, `null` removes it (tags and anchors: an empty list; body: empty; kind: `note`; area, repo, source: none; the title cannot be removed, `null` is a 400). Governance changes go through the action endpoints. Editing a reviewed topic keeps it reviewed (the approver's vouch stands until unvouched).",
  },
);
export type UpdateTopicDto = Static<typeof UpdateTopicDto>;

export const MoveTopicDto = Type.Object(
  {
    slug: Type.Optional(TopicSlugSchema),
    area_id: Type.Optional(Nullable(IdRef)),
    expected_version: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { ...strict, description: "At least one of `slug` and `area_id`. The old slug keeps answering, with the topic it now names." },
);
export type MoveTopicDto = Static<typeof MoveTopicDto>;

export const MergeTopicDto = Type.Object(
  {
    target: TopicSlugSchema,
    expected_version: Type.Optional(Type.Integer({ minimum: 1, description: "Of the topic being merged (the source)." })),
  },
  {
    ...strict,
    description:
      "Appends this topic's body to the target's under a heading, unions the tags, archives this topic (`merged_into`) and redirects its slug to the target.",
  },
);
export type MergeTopicDto = Static<typeof MergeTopicDto>;

export const TransitionDto = Type.Object(
  { expected_version: Type.Optional(Type.Integer({ minimum: 1 })) },
  { ...strict, description: "Optional; an empty body or none at all is the same." },
);
export type TransitionDto = Static<typeof TransitionDto>;

// ---- tags ----

export const TagView = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  topic_count: Type.Integer({ description: "Topics carrying the tag, archived ones included." }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type TagView = Static<typeof TagView>;

const TagDescription = Type.String({ maxLength: 2000 });
export const CreateTagDto = Type.Object(
  { name: TagNameInput, description: Type.Optional(TagDescription) },
  { ...strict, description: "Idempotent: an existing tag answers 200 and takes the description when one is given." },
);
export type CreateTagDto = Static<typeof CreateTagDto>;
export const UpdateTagDto = Type.Object(
  { name: Type.Optional(TagNameInput), description: Type.Optional(Nullable(TagDescription)) },
  {
    ...strict,
    description:
      "`name` renames (owner/admin): every topic carrying the tag carries the new name instead; renaming onto an existing tag merges the two. `description` describes (anyone who may write).",
  },
);
export type UpdateTagDto = Static<typeof UpdateTagDto>;

// ---- suggested edits ----

// The fields a patch may touch are exactly those an edit may (UpdateTopicDto), with the same
// schemas: `null` (RFC 7396: remove) is accepted by every field but the title.
const { expected_version: _expected, ...patchFields } = UpdateTopicDto.properties;

export const ProposalPatch = Type.Object(patchFields, {
  ...strict,
  minProperties: 1,
  description:
    "A JSON Merge Patch (RFC 7396) over the topic's editable fields. A member names the new value; arrays (`tags`, `anchors`) are replaced whole. `null` removes a field: `tags` and `anchors` become empty lists, `body` empty, `kind` its default `note`, `area_id`, `repo_id` and `source_url` none; the title cannot be removed (`null` is a 400). Unknown fields and an empty patch are a 400. Tags are normalised when the proposal is opened; the stored patch keeps the `null`s as sent.",
});
export type ProposalPatch = Static<typeof ProposalPatch>;
export type ProposalField = keyof ProposalPatch & string;
/** The editable fields, in a stable order (conflicts are reported in it). */
export const PROPOSAL_FIELDS = Object.keys(patchFields) as ProposalField[];

export const ProposalView = Type.Object({
  id: Type.String(),
  topic_id: Type.String(),
  topic_slug: Type.Union([Type.String(), Type.Null()], { description: "The topic's current slug; null when the topic is gone." }),
  summary: Type.String(),
  patch: Type.Record(Type.String(), Type.Unknown(), { description: "The merge patch as stored (tags normalised)." }),
  base_version: Type.Integer({ description: "The topic version the patch was made against." }),
  status: literalUnion(PROPOSAL_STATUSES),
  author_id: Type.Union([Type.String(), Type.Null()], { description: "Identity id of the author; null for a faceless key." }),
  via: literalUnion(APPROVED_VIA, { description: "`agent` when opened by a faceless key or an OAuth client, else `human`." }),
  created_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  decided_by: Type.Union([Type.String(), Type.Null()], { description: "Identity id of the owner/admin who merged or rejected it." }),
  merged_version: Type.Union([Type.Integer(), Type.Null()], { description: "The topic version the merge produced." }),
});
export type ProposalView = Static<typeof ProposalView>;

export const OpenProposalDto = Type.Object(
  {
    summary: Type.String({
      minLength: 1,
      maxLength: MAX_SUMMARY_LENGTH,
      pattern: "\\S",
      description: "What the edit does and why, 1 to 500 characters.",
    }),
    patch: ProposalPatch,
    base_version: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "The topic version the patch was written against (the `ETag` of the read it started from); default the current version. Later than the current version is a 400.",
      }),
    ),
  },
  {
    ...strict,
    description:
      "Opens a suggested edit. Anyone who may write (members, faceless keys, OAuth clients with `work:write`). The topic is not changed: reads keep serving its current (e.g. reviewed) text until an owner/admin merges the proposal.",
  },
);
export type OpenProposalDto = Static<typeof OpenProposalDto>;

// ---- relations and the graph ----

export const RelatedTopic = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    status: literalUnion(TOPIC_STATUSES),
    trust: literalUnion(TRUST_VERDICTS),
  },
  { description: "The topic at the other end." },
);

export const RelationView = Type.Object({
  id: Type.String(),
  type: literalUnion(RELATION_TYPES),
  direction: literalUnion(["outgoing", "incoming"] as const, {
    description: "`outgoing`: this topic is the subject (`from`); `incoming`: the other topic relates to this one.",
  }),
  from_topic_id: Type.String(),
  to_topic_id: Type.String(),
  topic: RelatedTopic,
  created_at: Timestamp,
  created_by: Type.Union([Type.String(), Type.Null()], { description: "Identity id; null for a faceless key." }),
});
export type RelationView = Static<typeof RelationView>;

export const GraphNode = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  status: literalUnion(TOPIC_STATUSES),
  trust: literalUnion(TRUST_VERDICTS),
  stale: Type.Boolean(),
  drifted: Type.Boolean(),
  distance: Type.Optional(Type.Integer({ description: "`graph` only: hops from the center." })),
});
export type GraphNode = Static<typeof GraphNode>;

export const GraphEdge = Type.Object({
  id: Type.String({ description: "The relation's id." }),
  from: Type.String({ description: "Topic id." }),
  to: Type.String({ description: "Topic id." }),
  type: literalUnion(RELATION_TYPES),
});
export type GraphEdge = Static<typeof GraphEdge>;

export const TopicGraphView = Type.Object({
  center: Type.String({ description: "The center's slug." }),
  depth: Type.Integer(),
  nodes: Type.Array(GraphNode, { description: "Breadth-first from the center (distance, then id)." }),
  edges: Type.Array(GraphEdge, { description: "Every relation between two of the nodes." }),
  truncated: Type.Boolean({ description: "True when the node bound (500) cut the walk short." }),
});
export type TopicGraphView = Static<typeof TopicGraphView>;

export const FullGraphView = Type.Object({
  shape: Type.Literal("nodes-edges"),
  nodes: Type.Array(GraphNode, { description: "Oldest topic first." }),
  edges: Type.Array(GraphEdge),
  truncated: Type.Boolean({ description: "True when the node (20,000) or edge (100,000) bound cut the graph." }),
});
export type FullGraphView = Static<typeof FullGraphView>;

export const AdjacencyGraphView = Type.Object({
  shape: Type.Literal("adjacency"),
  adjacency: Type.Record(
    Type.String(),
    Type.Array(Type.Object({ to: Type.String({ description: "Target slug." }), type: literalUnion(RELATION_TYPES) })),
    {
      description: "Every included topic's slug → its outgoing relations to included topics (an empty list when none).",
    },
  ),
  truncated: Type.Boolean(),
});
export type AdjacencyGraphView = Static<typeof AdjacencyGraphView>;

// ---- request bodies ----

export const CreateRelationDto = Type.Object(
  {
    type: literalUnion(RELATION_TYPES, { description: RELATION_TYPES_DOC }),
    target: TopicSlugSchema,
  },
  {
    additionalProperties: false,
    description:
      "Relates this topic (the subject) to `target`, a topic of the same workspace named by slug (an old slug names the topic it now answers with). A topic cannot relate to itself (400); an unknown target is a 400; the same relation twice is a 409 (for the symmetric `relates_to` and `contradicts`, in either direction).",
  },
);
export type CreateRelationDto = Static<typeof CreateRelationDto>;
