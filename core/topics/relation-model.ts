import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { TOPIC_STATUSES, type TopicStatus } from "./governance.ts";
import { TopicSlugSchema, TRUST_VERDICTS } from "./model.ts";

/**
 * Typed relations between topics of one workspace, and the graph they make.
 * docs/decisions/009-proposals-relations-graph.md.
 */
export const RELATION_TYPES = ["depends_on", "part_of", "supersedes", "contradicts", "relates_to"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Types that say the same read either way: A relates_to B is B relates_to A. */
export const SYMMETRIC_RELATION_TYPES: ReadonlySet<RelationType> = new Set(["relates_to", "contradicts"]);

export const RELATION_TYPES_DOC =
  "`depends_on` (the topic needs the target to hold), `part_of` (the topic is a part of the target), `supersedes` (the topic replaces the target), `contradicts` (the two disagree; symmetric), `relates_to` (see also; symmetric).";

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

// ---- responses ----

const Timestamp = Type.String({ description: "ISO 8601 UTC timestamp." });

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
  adjacency: Type.Record(Type.String(), Type.Array(Type.Object({ to: Type.String({ description: "Target slug." }), type: literalUnion(RELATION_TYPES) })), {
    description: "Every included topic's slug → its outgoing relations to included topics (an empty list when none).",
  }),
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
