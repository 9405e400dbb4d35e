import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { UUID_PATTERN } from "../kernel/ids.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { TOPIC_STATUSES } from "./governance.ts";
import { MAX_TAG_LENGTH } from "./tag-name.ts";
import { MAX_TOPIC_SLUG_LENGTH, TOPIC_SLUG_PATTERN } from "./topic-slug.ts";

/** `note`: working knowledge written here; `doc`: a page that documents a system (filter `docs`). */
export const TOPIC_KINDS = ["note", "doc"] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];
/** `manual`: written by a person; `auto`: written by a program (filters `manual`, `auto`). */
export const TOPIC_ORIGINS = ["manual", "auto"] as const;
export type TopicOrigin = (typeof TOPIC_ORIGINS)[number];
export const APPROVED_VIA = ["human", "agent"] as const;
export type ApprovedVia = (typeof APPROVED_VIA)[number];
/** The flat trust verdict: what a reader may rely on. An archived topic makes no claim: `draft`. */
export const TRUST_VERDICTS = ["reviewed", "proposed", "draft"] as const;
export type Trust = (typeof TRUST_VERDICTS)[number];

export const MAX_TITLE_LENGTH = 200;
export const MAX_BODY_LENGTH = 200_000;
export const MAX_TAGS_PER_TOPIC = 32;
export const MAX_ANCHORS_PER_TOPIC = 20;

const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const strict = { additionalProperties: false } as const;

export const Governance = Type.Object({
  authoritative: Type.Boolean({ description: "True while the topic is reviewed Knowledge." }),
  approved_by: Nullable(Type.String({ description: "Identity id of the owner/admin who approved or last re-vouched." })),
  approved_at: Nullable(Timestamp),
});
export type Governance = Static<typeof Governance>;

export const Drift = Type.Object({
  commit: Nullable(Type.String()),
  files: Type.Array(Type.String()),
  at: Timestamp,
});
export type Drift = Static<typeof Drift>;

/** A topic as stored: every field a store keeps. */
export const Topic = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  slug: Type.String(),
  title: Type.String(),
  body: Type.String(),
  tags: Type.Array(Type.String(), { description: "Normalised tag names, sorted." }),
  area_id: Nullable(Type.String()),
  repo_id: Nullable(Type.String()),
  anchors: Type.Array(Type.String(), { description: "Glob patterns (picomatch) of files of the linked repo this topic is about." }),
  kind: literalUnion(TOPIC_KINDS),
  origin: literalUnion(TOPIC_ORIGINS),
  source_url: Nullable(Type.String()),
  owner_id: Nullable(Type.String()),
  author_id: Nullable(Type.String()),
  status: literalUnion(TOPIC_STATUSES),
  governance: Governance,
  approved_via: Nullable(literalUnion(APPROVED_VIA)),
  drift: Nullable(Drift),
  merged_into: Nullable(Type.String()),
  merged_from: Type.Array(Type.String()),
  version: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Topic = Static<typeof Topic>;

/** Kinds of change recorded on a topic's history and the workspace timeline (`topic.<type>`). */
export const TOPIC_EVENT_TYPES = [
  "topic.created",
  "topic.updated",
  "topic.proposed",
  "topic.rejected",
  "topic.approved",
  "topic.archived",
  "topic.unvouched",
  "topic.vouched",
  "topic.restored",
  "topic.merged",
  "topic.merged_into",
  "topic.moved",
  "topic.retagged",
  "topic.deleted",
  "topic.drifted",
] as const;
export type TopicEventType = (typeof TOPIC_EVENT_TYPES)[number];

/**
 * One change of one topic: a row of the workspace timeline and, while the topic exists, a
 * revision of its history (`snapshot` holds the topic as the change left it; it is dropped when
 * the topic is deleted, so deleting a topic deletes its text everywhere).
 */
export interface TopicEvent {
  id: string;
  workspace_id: string;
  topic_id: string;
  topic_slug: string;
  repo_id: string | null;
  type: TopicEventType;
  /** The topic's version after the change; unique per topic. */
  version: number;
  actor_id: string | null;
  via: ApprovedVia;
  at: string;
  data: Record<string, unknown>;
  snapshot: Topic | null;
}

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
    description: "`zero`: matches nothing (or cannot be compiled); `overbroad`: matches more than max(500, 20% of the repo's files); else `ok`.",
  }),
  samples: Type.Array(Type.String(), { description: "Up to 5 matching paths, in path order." }),
  warnings: Type.Array(Type.String()),
});
export type AnchorCheck = Static<typeof AnchorCheck>;

export const AnchorValidation = Type.Object(
  {
    repo_id: Type.String(),
    commit: Nullable(Type.String({ description: "The commit of the file index the anchors were checked against; null when there is none." })),
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
      Type.Array(Type.String(), { description: "With `include_orphaned=true`: anchors matching no file of the repo's current file index." }),
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
    description: "A glob (picomatch syntax) relative to the repo root, e.g. `src/billing/**/*.ts`; no leading slash, no leading or trailing whitespace.",
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
    origin: Type.Optional(literalUnion(TOPIC_ORIGINS, { description: "Defaults to `auto` for a program (OAuth client, faceless key), else `manual`." })),
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
  anchors: Type.Union([AnchorsSchema, Type.Null()], { description: "Replaces the anchors whole; `null` removes them all (an empty list)." }),
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
    expected_version: Type.Optional(Type.Integer({ minimum: 1, description: "Or the `If-Match` header; a stale value is 409 VERSION_CONFLICT." })),
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

export interface Tag {
  workspace_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

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
