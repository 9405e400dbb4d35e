import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { TOPIC_STATUSES, type TopicStatus } from "./governance.ts";
import type { ProposalPatch } from "./dto.ts";

/**
 * What the topics module keeps and reasons about: topics, their events and tags, suggested edits
 * and relations, as stored, with their value types. What crosses the API is in dto.ts.
 */

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

export interface Tag {
  workspace_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

// ---- suggested edits ----

/**
 * Suggested edits (proposals) on a topic: a JSON Merge Patch (RFC 7396) over the topic's editable
 * fields, made against a version of the topic, reviewed by an owner/admin who merges it (a new
 * revision) or rejects it. docs/decisions/009-proposals-relations-graph.md.
 */
export const PROPOSAL_STATUSES = ["open", "merged", "rejected"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const MAX_SUMMARY_LENGTH = 500;

/** A proposal as stored. */
export interface Proposal {
  id: string;
  workspace_id: string;
  topic_id: string;
  summary: string;
  patch: ProposalPatch;
  /** The topic version the patch was made against: a merge compares each touched field with it. */
  base_version: number;
  status: ProposalStatus;
  author_id: string | null;
  via: ApprovedVia;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  /** The topic's version once merged (the new revision, or the current one when nothing was left to change). */
  merged_version: number | null;
}

/** How a proposal was closed. */
export interface ProposalDecision {
  status: Exclude<ProposalStatus, "open">;
  decided_at: string;
  decided_by: string | null;
  merged_version: number | null;
}

// ---- relations and the graph ----

/**
 * Typed relations between topics of one workspace, and the graph they make.
 * docs/decisions/009-proposals-relations-graph.md.
 */
export const RELATION_TYPES = ["depends_on", "part_of", "supersedes", "contradicts", "relates_to", "references"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Types that say the same read either way: A relates_to B is B relates_to A. */
export const SYMMETRIC_RELATION_TYPES: ReadonlySet<RelationType> = new Set(["relates_to", "contradicts"]);

export const RELATION_TYPES_DOC =
  "`depends_on` (the topic needs the target to hold), `part_of` (the topic is a part of the target), `supersedes` (the topic replaces the target), `contradicts` (the two disagree; symmetric), `relates_to` (see also; symmetric), `references` (the topic links to the target: what a Markdown import makes of a link between files).";

/** A relation as stored: `from` relates to `to` by `type`. */
export interface Relation {
  id: string;
  workspace_id: string;
  from_topic_id: string;
  to_topic_id: string;
  type: RelationType;
  created_at: string;
  created_by: string | null;
}

/**
 * What makes two relations the same one, unique per workspace: from, to and type; for a
 * symmetric type the pair in either order.
 */
export function relationKey(from: string, to: string, type: RelationType): string {
  if (SYMMETRIC_RELATION_TYPES.has(type)) return from < to ? `${from}~${to}:${type}` : `${to}~${from}:${type}`;
  return `${from}>${to}:${type}`;
}

/** A topic as a graph shows it, as a store reads it (no body). */
export interface GraphNodeRow {
  id: string;
  slug: string;
  title: string;
  status: TopicStatus;
  approved_at: string | null;
  drifted: boolean;
}

/**
 * What the full graph's ETag is made of, read from indexed aggregates without loading topics:
 * the workspace's newest topic event and their count (every topic change is an event), the
 * relation change marker, and how many reviewed topics are stale as of now (the only part of a
 * node that changes with time alone; for fixed topics the stale set only grows, so its size
 * names it).
 */
export interface GraphFingerprint {
  lastEventId: string | null;
  eventCount: number;
  relationMarker: string;
  staleCount: number;
}
