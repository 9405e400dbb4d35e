import type { TopicDeps } from "./ports.ts";
import { validationFailed } from "../kernel/errors.ts";
import { parseBoundedInt } from "../kernel/paging.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { GraphFingerprint, GraphNodeRow, Relation, Topic } from "./model.ts";
import type { AdjacencyGraphView, FullGraphView, GraphEdge, GraphNode, TopicGraphView } from "./dto.ts";
import { isStale, staleBefore } from "./staleness.ts";
import { findTopic } from "./topic-access.ts";
import { parseBool, type QueryBool, type QueryInt } from "../kernel/query-params.ts";
import { trustOf } from "./view.ts";

/** `GET /topics/graph`: depth 1 to 3 (default 1), at most 500 nodes. */
export const GRAPH_DEPTH = { default: 1, max: 3 } as const;
export const MAX_GRAPH_NODES = 500;
/** Relations read per level of the walk; beyond it the walk stops there (`truncated`). */
export const MAX_GRAPH_LEVEL_RELATIONS = 10_000;
/** `GET /topics/graph-full`: at most this many nodes (oldest first) and edges. */
export const MAX_FULL_GRAPH_NODES = 20_000;
export const MAX_FULL_GRAPH_EDGES = 100_000;
export const GRAPH_SHAPES = ["nodes-edges", "adjacency"] as const;
export type GraphShape = (typeof GRAPH_SHAPES)[number];

const bad = (name: string, message: string) => validationFailed(`Invalid ${name}: ${message}`, [{ path: `query.${name}`, message }]);
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function toNode(n: GraphNodeRow, ws: Workspace, now: Date): GraphNode {
  return {
    id: n.id,
    slug: n.slug,
    title: n.title,
    status: n.status,
    trust: trustOf(n.status),
    stale: isStale(n.status, n.approved_at, ws.settings.review_interval_days, now),
    drifted: n.drifted,
  };
}

const rowOf = (t: Topic): GraphNodeRow => ({
  id: t.id,
  slug: t.slug,
  title: t.title,
  status: t.status,
  approved_at: t.governance.approved_at,
  drifted: t.drift !== null,
});

const toEdge = (r: Relation): GraphEdge => ({ id: r.id, from: r.from_topic_id, to: r.to_topic_id, type: r.type });

/**
 * The neighbourhood of a topic: a breadth-first walk over relations in both directions, up to
 * `depth` hops, leaving out archived topics (unless the center is one), at most 500 nodes.
 */
export async function topicGraph(deps: TopicDeps, ws: Workspace, q: { center?: string; depth?: QueryInt }): Promise<TopicGraphView> {
  if (q.center === undefined || q.center === "") throw bad("center", "the slug of the topic to start from is required");
  const depth = parseBoundedInt("depth", q.depth, 1, GRAPH_DEPTH.max) ?? GRAPH_DEPTH.default;
  const { topic: center } = await findTopic(deps, ws, q.center);
  const now = deps.clock.now();
  const store = deps.stores.relations;
  const distance = new Map<string, number>([[center.id, 0]]);
  const rows: GraphNodeRow[] = [rowOf(center)];
  const edges = new Map<string, Relation>();
  let frontier = [center.id];
  let truncated = false;
  const readLevel = async (ids: string[]) => {
    const rels = await store.ofTopics(ws.id, ids, MAX_GRAPH_LEVEL_RELATIONS + 1);
    if (rels.length > MAX_GRAPH_LEVEL_RELATIONS) {
      truncated = true;
      rels.length = MAX_GRAPH_LEVEL_RELATIONS;
    }
    for (const r of rels) edges.set(r.id, r);
    return rels;
  };
  for (let d = 1; d <= depth && frontier.length > 0 && !truncated; d++) {
    const rels = await readLevel(frontier);
    const next = new Set<string>();
    for (const r of rels) for (const id of [r.from_topic_id, r.to_topic_id]) if (!distance.has(id)) next.add(id);
    let found = next.size === 0 ? [] : (await store.nodes(ws.id, [...next])).filter((n) => n.status !== "archived").sort(byId);
    const room = MAX_GRAPH_NODES - rows.length;
    if (found.length > room) {
      truncated = true;
      found = found.slice(0, room);
    }
    for (const n of found) {
      distance.set(n.id, d);
      rows.push(n);
    }
    frontier = found.map((n) => n.id);
  }
  // The last level was not walked from: its relations among the nodes are edges all the same.
  if (frontier.length > 0) await readLevel(frontier);
  return {
    center: center.slug,
    depth,
    nodes: rows.map((n) => ({ ...toNode(n, ws, now), distance: distance.get(n.id)! })),
    edges: [...edges.values()].filter((r) => distance.has(r.from_topic_id) && distance.has(r.to_topic_id)).sort(byId).map(toEdge),
    truncated,
  };
}

export interface FullGraphQuery {
  shape?: string;
  include_archived?: QueryBool;
}

export type FullGraph = { etag: string; notModified: true } | {
  etag: string;
  notModified: false;
  body: FullGraphView | AdjacencyGraphView;
};

function parseShape(raw: string | undefined): GraphShape {
  if (raw === undefined) return "nodes-edges";
  if ((GRAPH_SHAPES as readonly string[]).includes(raw)) return raw as GraphShape;
  throw bad("shape", `expected one of ${GRAPH_SHAPES.join(", ")}`);
}

/** A strong entity tag naming the graph's state and the representation asked for. */
export async function graphEtag(fp: GraphFingerprint, ws: Workspace, shape: GraphShape, includeArchived: boolean): Promise<string> {
  const text = [
    "graph-v1",
    ws.id,
    ws.settings.review_interval_days,
    fp.lastEventId ?? "-",
    fp.eventCount,
    fp.relationMarker,
    fp.staleCount,
    shape,
    includeArchived,
  ].join("|");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `"${[...digest.slice(0, 20)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/**
 * The whole graph: every topic but archived ones (all with `include_archived=true`), and every
 * relation between two of them, as nodes and edges or as an adjacency map of slugs. The tag of
 * its state is computed from a fingerprint first; when the caller already `holds` that state,
 * nothing else is read.
 */
export async function fullGraph(
  deps: TopicDeps,
  ws: Workspace,
  q: FullGraphQuery,
  holds: (etag: string) => boolean = () => false,
): Promise<FullGraph> {
  const shape = parseShape(q.shape);
  const includeArchived = parseBool("include_archived", q.include_archived) ?? false;
  const now = deps.clock.now();
  const store = deps.stores.relations;
  // The fingerprint is read before the graph: a change in between yields a body newer than its
  // tag (the next request gets a fresh one), never an old body under a new tag.
  const fp = await store.fingerprint(ws.id, staleBefore(ws.settings.review_interval_days, now));
  const etag = await graphEtag(fp, ws, shape, includeArchived);
  if (holds(etag)) return { etag, notModified: true };

  const [rows, rels] = await Promise.all([
    store.allNodes(ws.id, includeArchived, MAX_FULL_GRAPH_NODES + 1),
    store.list(ws.id, MAX_FULL_GRAPH_EDGES + 1),
  ]);
  const truncated = rows.length > MAX_FULL_GRAPH_NODES || rels.length > MAX_FULL_GRAPH_EDGES;
  const nodes = rows.slice(0, MAX_FULL_GRAPH_NODES);
  const slugOf = new Map(nodes.map((n) => [n.id, n.slug]));
  const edges = rels.slice(0, MAX_FULL_GRAPH_EDGES).filter((r) => slugOf.has(r.from_topic_id) && slugOf.has(r.to_topic_id)).sort(byId);
  if (shape === "adjacency") {
    const adjacency: AdjacencyGraphView["adjacency"] = {};
    for (const n of nodes) adjacency[n.slug] = [];
    for (const r of edges) adjacency[slugOf.get(r.from_topic_id)!]!.push({ to: slugOf.get(r.to_topic_id)!, type: r.type });
    return { etag, notModified: false, body: { shape, adjacency, truncated } };
  }
  return { etag, notModified: false, body: { shape, nodes: nodes.map((n) => toNode(n, ws, now)), edges: edges.map(toEdge), truncated } };
}
