import { Type } from "@sinclair/typebox";
import { DEFAULT_LIMIT, UUID_PATTERN } from "../../../core/kernel/mod.ts";
import {
  addRelation,
  AdjacencyGraphView,
  CreateRelationDto,
  deleteRelation,
  fullGraph,
  FullGraphView,
  GRAPH_DEPTH,
  GRAPH_SHAPES,
  listOpenProposals,
  listRelations,
  listTopicProposals,
  MAX_FULL_GRAPH_EDGES,
  MAX_FULL_GRAPH_NODES,
  MAX_GRAPH_NODES,
  MAX_RELATIONS_LISTED,
  MAX_RELATIONS_PER_TOPIC,
  MAX_SUMMARY_LENGTH,
  mergeProposal,
  openProposal,
  OpenProposalDto,
  PROPOSAL_STATUSES,
  ProposalView,
  rejectProposal,
  RELATION_TYPES_DOC,
  RelationView,
  topicGraph,
  TopicGraphView,
  TopicSlugSchema,
  TopicView,
} from "../../../core/topics/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { booleanParam, enumParam, integerParam, limitParam, offsetParam } from "../../http/query-schemas.ts";
import { ifNoneMatchHits, setEtag } from "../../http/etag.ts";
import { Deleted, errors, pageOf, strict } from "../../http/schemas.ts";
import { SlugParams, type TopicDoc as Doc, TopicParams, type TopicScope } from "./table.ts";

/**
 * Suggested edits, relations and the graph: routes of the topic table (server/routes/topics/topics.ts
 * registers them on its own instance, so they exist under `/topics` and `/watchers` alike).
 * docs/decisions/009-proposals-relations-graph.md.
 */

const Id = Type.String({ pattern: UUID_PATTERN });
const ProposalParams = Type.Object({ slug: SlugSchema, topic: TopicSlugSchema, proposalId: Id }, strict);
const RelationParams = Type.Object({ slug: SlugSchema, topic: TopicSlugSchema, relationId: Id }, strict);

const limit = limitParam(DEFAULT_LIMIT);
const offset = offsetParam;
const QueueQuery = Type.Object({ limit, offset }, strict);
const ProposalListQuery = Type.Object(
  {
    status: enumParam(PROPOSAL_STATUSES, "`open`, `merged` or `rejected`. Without it, every status."),
    limit,
    offset,
  },
  strict,
);
const GraphQuery = Type.Object(
  {
    center: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "Slug of the topic to start from (required; an old slug names the topic it now answers with).",
    }),
    depth: integerParam(
      1,
      GRAPH_DEPTH.max,
      `Hops from the center, 1 to ${GRAPH_DEPTH.max} (default ${GRAPH_DEPTH.default}). Over ${GRAPH_DEPTH.max} is a 400.`,
    ),
  },
  strict,
);
const FullGraphQuery = Type.Object(
  {
    shape: enumParam(
      GRAPH_SHAPES,
      "`nodes-edges` (default): `{ nodes, edges }`; `adjacency`: `{ adjacency: { <slug>: [{ to: <slug>, type }] } }`.",
    ),
    include_archived: booleanParam("`true` includes archived topics and their relations. Default `false`."),
  },
  strict,
);
const IfNoneMatch = Type.Object({
  "if-none-match": Type.Optional(
    Type.String({
      description: "The `ETag` of a previous answer: when the graph has not changed since, the answer is a 304 with no body.",
    }),
  ),
});
const NoBody = Type.Optional(Type.Object({}, { ...strict, description: "None, or an empty object." }));
/** Documents the 304 (OpenAPI lists it under its description); the answer itself has no body. */
const NotModified = Type.Any({ description: "Not modified: the graph is still as the `ETag` named in `If-None-Match` says. No body." });
const MergeResult = Type.Object({ proposal: ProposalView, topic: TopicView });

const PROPOSAL_RULES =
  `The patch is a JSON Merge Patch (RFC 7396) over the editable fields (title, body, tags, anchors, kind, source_url, area_id, repo_id); \`null\` removes a field (tags and anchors: empty lists; body: empty; kind: \`note\`; area, repo, source: none; the title cannot be removed); tags are normalised. The proposal records the topic version it was made against (\`base_version\`). Summary: 1 to ${MAX_SUMMARY_LENGTH} characters.`;

export function topicLinkRoutes(r: TopicScope, base: "/topics" | "/watchers", core: ServerDeps["core"], doc: Doc): void {
  proposalRoutes(r, base, core, doc);
  relationRoutes(r, base, core, doc);
}

/** Suggested edits: listed, made, merged and rejected. */
function proposalRoutes(r: TopicScope, base: "/topics" | "/watchers", core: ServerDeps["core"], doc: Doc): void {
  r.get(
    `${base}/proposals`,
    async ({ workspace, query }) => {
      const { items, total, has_more } = await listOpenProposals(core, workspace, query);
      return { proposals: items, total, has_more };
    },
    {
      params: SlugParams,
      query: QueueQuery,
      response: { 200: pageOf("proposals", ProposalView), ...errors(400, 401, 404) },
      detail: doc(
        "Review queue: open suggested edits",
        "Every open proposal of the workspace, oldest first (the order to review them in).",
      ),
    },
  );
  r.get(
    `${base}/:topic/proposals`,
    async ({ workspace, params, query }) => {
      const { items, total, has_more } = await listTopicProposals(core, workspace, params.topic, query);
      return { proposals: items, total, has_more };
    },
    {
      params: TopicParams,
      query: ProposalListQuery,
      response: { 200: pageOf("proposals", ProposalView), ...errors(400, 401, 404) },
      detail: doc(
        "List a topic's suggested edits",
        "Newest first; `status` filters. The slug of a topic merged into another names the merged topic itself here (its proposals stay reachable), not the target.",
      ),
    },
  );
  r.post(
    `${base}/:topic/proposals`,
    async ({ principal, workspace, params, body, set }) => {
      set.status = 201;
      return openProposal(core, principal, workspace, params.topic, body);
    },
    {
      parse: "json",
      params: TopicParams,
      body: OpenProposalDto,
      response: { 201: ProposalView, ...errors(400, 401, 403, 404, 409, 413) },
      detail: doc(
        "Open a suggested edit",
        `${PROPOSAL_RULES} Anyone who may write, agents included. The topic is not changed: while a proposal is open, reads keep serving the current (e.g. reviewed) text. An archived topic is a 409; an empty patch, an unknown field or a \`null\` title is a 400.`,
      ),
    },
  );
  r.post(
    `${base}/:topic/proposals/:proposalId/merge`,
    async ({ principal, workspace, params, set }) => {
      set.status = 201;
      const merged = await mergeProposal(core, principal, workspace, params.topic, params.proposalId);
      setEtag(set, merged.topic.version);
      return merged;
    },
    {
      parse: "json",
      params: ProposalParams,
      body: NoBody,
      response: { 201: MergeResult, ...errors(400, 401, 403, 404, 409, 413) },
      detail: doc(
        "Merge a suggested edit (owner/admin)",
        "Applies the patch as a new revision of the topic (a `topic.updated` event carrying `proposal_id`), stamps `approved_via` (`agent` through an OAuth client, else `human`) and marks the proposal merged. Three-way per touched field: if a field the patch touches changed since `base_version` (and not to the patched value), the answer is 409 `CONFLICT` with `conflicting_fields` and nothing is applied. A closed proposal or an archived topic is a 409; of two merges racing, one applies and the other gets a 409. Members and faceless keys get a 403. Answers with the proposal and the topic (`ETag`: its version).",
      ),
    },
  );
  r.post(
    `${base}/:topic/proposals/:proposalId/reject`,
    async ({ principal, workspace, params, set }) => {
      set.status = 201;
      return rejectProposal(core, principal, workspace, params.topic, params.proposalId);
    },
    {
      parse: "json",
      params: ProposalParams,
      body: NoBody,
      response: { 201: ProposalView, ...errors(400, 401, 403, 404, 409, 413) },
      detail: doc(
        "Close a suggested edit without applying it (owner/admin)",
        "A proposal that is not open is a 409; members and faceless keys get a 403.",
      ),
    },
  );
}

/** Relations between topics, and the graph they make. */
function relationRoutes(r: TopicScope, base: "/topics" | "/watchers", core: ServerDeps["core"], doc: Doc): void {
  r.get(
    `${base}/:topic/relations`,
    async ({ workspace, params }) => listRelations(core, workspace, params.topic),
    {
      params: TopicParams,
      response: {
        200: Type.Object({
          relations: Type.Array(RelationView),
          total: Type.Integer(),
          truncated: Type.Boolean({
            description: `True when the topic has more than ${MAX_RELATIONS_LISTED} relations (the oldest are listed).`,
          }),
        }),
        ...errors(400, 401, 404),
      },
      detail: doc(
        "List a topic's relations",
        `Outgoing (this topic is the subject) and incoming, oldest first, each with the topic at the other end (slug, title, status, trust). At most ${MAX_RELATIONS_LISTED}.`,
      ),
    },
  );
  r.post(
    `${base}/:topic/relations`,
    async ({ principal, workspace, params, body, set }) => {
      set.status = 201;
      return addRelation(core, principal, workspace, params.topic, body);
    },
    {
      parse: "json",
      params: TopicParams,
      body: CreateRelationDto,
      response: { 201: RelationView, ...errors(400, 401, 403, 404, 409, 413) },
      detail: doc(
        "Add a typed relation",
        `Types: ${RELATION_TYPES_DOC} ${CreateRelationDto.description} A topic takes at most ${MAX_RELATIONS_PER_TOPIC} relations (409 beyond). Over OAuth this takes scope \`topics:write\`.`,
      ),
    },
  );
  r.delete(
    `${base}/:topic/relations/:relationId`,
    async ({ principal, workspace, params }) => ({
      id: await deleteRelation(core, principal, workspace, params.topic, params.relationId),
      deleted: true as const,
    }),
    {
      params: RelationParams,
      response: { 200: Deleted, ...errors(400, 401, 403, 404) },
      detail: doc(
        "Delete a relation (people only)",
        "The relation must have this topic at one end (else 404). Only a person may delete a relation: a faceless key (and, later, an OAuth client) gets a 403.",
      ),
    },
  );

  // ---- the graph ----
  r.get(`${base}/graph`, async ({ workspace, query }) => topicGraph(core, workspace, query), {
    params: SlugParams,
    query: GraphQuery,
    response: { 200: TopicGraphView, ...errors(400, 401, 404) },
    detail: doc(
      "A topic's neighbourhood graph",
      `Breadth-first over relations in both directions from \`center\`, up to \`depth\` hops (1 to ${GRAPH_DEPTH.max}, default ${GRAPH_DEPTH.default}), at most ${MAX_GRAPH_NODES} nodes (\`truncated: true\` when cut). Archived topics are left out unless they are the center. Nodes carry id, slug, title, status, trust, stale, drifted and their distance; edges carry the relation id, \`from\` and \`to\` (topic ids) and \`type\`.`,
    ),
  });
  r.get(
    `${base}/graph-full`,
    async ({ workspace, query, headers, set }) => {
      const g = await fullGraph(core, workspace, query, (etag) => ifNoneMatchHits(headers["if-none-match"], etag));
      set.headers.etag = g.etag;
      // 304 carries no body (and no body schema): a bare Response, with the headers set so far.
      if (g.notModified) return new Response(null, { status: 304, headers: set.headers as Record<string, string> }) as never;
      return g.body;
    },
    {
      params: SlugParams,
      query: FullGraphQuery,
      headers: IfNoneMatch,
      response: { 200: Type.Union([FullGraphView, AdjacencyGraphView]), 304: NotModified, ...errors(400, 401, 404) },
      detail: doc(
        "The whole topic graph",
        `Every topic but archived ones (all with \`include_archived=true\`) and every relation between two of them. \`shape=nodes-edges\` (default) or \`adjacency\`. At most ${
          MAX_FULL_GRAPH_NODES.toLocaleString("en")
        } nodes (the oldest) and ${
          MAX_FULL_GRAPH_EDGES.toLocaleString("en")
        } edges; \`truncated: true\` says a bound cut it. A strong \`ETag\` names the graph's state (every topic change, relation change and staleness change moves it, and it differs per \`shape\` and \`include_archived\`); with \`If-None-Match\` naming it the answer is 304 with no body, decided without reading the graph.`,
      ),
    },
  );
}
