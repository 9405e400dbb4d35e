import { Type } from "@sinclair/typebox";
import {
  applyGovernance,
  createTopic,
  CreateTopicDto,
  deleteTopic,
  getTopic,
  GOVERNANCE_ACTIONS,
  listTopicEvents,
  listTopicPage,
  mergeTopic,
  MergeTopicDto,
  moveTopic,
  MoveTopicDto,
  searchTopicPage,
  TopicEventView,
  TopicView,
  TransitionDto,
  updateTopic,
  UpdateTopicDto,
} from "../../../core/topics/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { deprecationHeaders, WATCHERS_DEPRECATION } from "../../http/deprecations.ts";
import { withEtag } from "../../http/etag.ts";
import { keepAnswer, keptAnswer, sendAndKeep } from "../../http/kept-json.ts";
import { expectedVersion } from "../../http/expected-version.ts";
import { IfMatchHeader } from "../../http/query-schemas.ts";
import { authenticated, Deleted, errors, pageOf } from "../../http/schemas.ts";
import { codeContextRoutes } from "../code-context/code-context.ts";
import { GOVERNANCE_DOCS } from "./docs.ts";
import { topicLinkRoutes } from "./links.ts";
import { topicSharingRoutes } from "./sharing.ts";
import { TimelineQuery, TopicGetQuery, TopicListQuery, TopicSearchQuery } from "./queries.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";
import { SlugParams, type TopicDoc as Doc, TopicParams, type TopicScope } from "./table.ts";

const SearchPage = Type.Composite([
  pageOf("topics", TopicView),
  Type.Object({
    total_capped: Type.Boolean({
      description: "True when more than 1,000 topics match: `total` is then not exact (1,000, or the database's estimate of the matches).",
    }),
  }),
]);
const IfMatch = Type.Object({ "if-match": IfMatchHeader });

/**
 * The topic routes, registered once per base path: `/topics`, and `/watchers`, the deprecated
 * alias old command-line clients still call. Both are this one table; the alias only adds
 * `Deprecation`, `Sunset` and `Link: <successor>; rel="successor-version"` headers and says so in
 * OpenAPI.
 */
export function topicRoutes(deps: ServerDeps, base: "/topics" | "/watchers") {
  const core = deps.core;
  const alias = base === "/watchers";
  const tags = [alias ? "watchers (deprecated)" : "topics"];
  const doc = (summary: string, description?: string) => ({
    ...authenticated,
    tags,
    summary: alias ? `${summary} (deprecated alias of /topics)` : summary,
    ...(description ? { description } : {}),
    ...(alias ? { deprecated: true } : {}),
  });

  const routes = workspaceScope(deps, base.slice(1), {
    headers: alias ? (url) => deprecationHeaders(WATCHERS_DEPRECATION, url) : undefined,
  });

  const r = routes
    .get(
      base,
      async ({ workspace, query, request }) => {
        const answer = await listTopicPage(core, workspace, query);
        if ("json" in answer) return keptAnswer(request, answer.json);
        keepAnswer(request, answer.keep);
        const { items, total, has_more } = answer.page;
        return { topics: items, total, has_more };
      },
      {
        mapResponse: sendAndKeep,
        params: SlugParams,
        query: TopicListQuery,
        response: { 200: pageOf("topics", TopicView), ...errors(400, 401, 404) },
        detail: doc(
          "List topics",
          "Ranked: drifted topics first, then by trust (reviewed, proposed, draft), then most recently updated. Archived topics are hidden unless `status=archived`. Filters combine with AND; an unknown tag matches nothing.",
        ),
      },
    )
    .post(
      base,
      async ({ principal, workspace, body, set }) => {
        const view = await createTopic(core, principal, workspace, body);
        set.status = 201;
        return withEtag(set, view);
      },
      {
        parse: "json",
        params: SlugParams,
        body: CreateTopicDto,
        response: { 201: TopicView, ...errors(400, 401, 402, 403, 404, 409, 413) },
        detail: doc(
          "Create a topic",
          "Creates a Note (`draft`), or with `status: proposed` puts it up for review at once. Tags are normalised and registered. A chosen slug that is taken is a 409. With a `repo_id`, the answer carries `anchor_validation`: each anchor's match count on the repo's default branch, rated `ok`, `overbroad` (more than max(500, 20% of the repo's files)) or `zero`, with samples and warnings; advisory, it never blocks the write.",
        ),
      },
    )
    .get(
      `${base}/search`,
      async ({ workspace, query, request }) => {
        const answer = await searchTopicPage(core, workspace, query);
        if ("json" in answer) return keptAnswer(request, answer.json);
        keepAnswer(request, answer.keep);
        const { items, total, has_more, total_capped } = answer.page;
        return { topics: items, total, has_more, total_capped };
      },
      {
        mapResponse: sendAndKeep,
        params: SlugParams,
        query: TopicSearchQuery,
        response: { 200: SearchPage, ...errors(400, 401, 404) },
        detail: doc(
          "Search topics",
          "Full text over title, tags and body. Words are matched whole, case- and accent-insensitively; a topic must contain every word. Each word scores by the best field holding it (title 3, tags 2, body 1); equal scores rank reviewed before proposed before draft, then most recently updated. Notes (drafts) only with `include_notes=true`; archived topics never. `total` counts matches exactly up to 1,000; beyond, `total_capped` is true and `total` is 1,000 or, on PostgreSQL, the planner's estimate of the matches.",
        ),
      },
    )
    .get(
      `${base}/events`,
      async ({ workspace, query }) => {
        const { items, total, has_more } = await listTopicEvents(core, workspace, query);
        return { events: items, total, has_more };
      },
      {
        params: SlugParams,
        query: TimelineQuery,
        response: { 200: pageOf("events", TopicEventView), ...errors(400, 401, 404) },
        detail: doc(
          "Topic event timeline",
          "Every topic change, newest first: `topic.created`, `topic.updated`, each governance action (`topic.proposed`, `topic.approved`, ...), `topic.moved`, `topic.merged` (on the target), `topic.merged_into` (on the source), `topic.retagged`, `topic.drifted` (anchored code changed), `topic.deleted`. Events of deleted topics stay, without their text.",
        ),
      },
    );
  topicItemRoutes(routes, base, core, doc);
  governanceRoutes(routes, base, core, doc);
  // Suggested edits, relations and the graph: the same table, so under both base paths.
  topicLinkRoutes(routes, base, core, doc);
  // Code context (match-files, mark-drift): the same table, so under both base paths.
  codeContextRoutes(routes, base, core, doc);
  // The public link and sharing with members: the same table, so under both base paths.
  topicSharingRoutes(routes, base, deps, doc);
  return r;
}

/** One topic: read, edited, deleted, merged into another, moved. */
function topicItemRoutes(r: TopicScope, base: "/topics" | "/watchers", core: ServerDeps["core"], doc: Doc): void {
  r
    .get(
      `${base}/:topic`,
      async ({ workspace, params, query, set }) => withEtag(set, await getTopic(core, workspace, params.topic, query)),
      {
        params: TopicParams,
        query: TopicGetQuery,
        response: { 200: TopicView, ...errors(400, 401, 404) },
        detail: doc(
          "Read a topic",
          "An old slug (left by a move or a merge) answers with the topic it now names, and says so in `redirected_from`. `ETag` carries the version for `If-Match`. `include_orphaned=true` adds `orphaned_anchors`: anchors that match no file of the repo's current index.",
        ),
      },
    )
    .patch(
      `${base}/:topic`,
      async ({ principal, workspace, params, body, headers, set }) =>
        withEtag(set, await updateTopic(core, principal, workspace, params.topic, body, expectedVersion({ body, headers }))),
      {
        parse: "json",
        params: TopicParams,
        headers: IfMatch,
        body: UpdateTopicDto,
        response: { 200: TopicView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc(
          "Edit a topic",
          "Optimistic concurrency: send `If-Match` or `expected_version`; a stale one is 409 `VERSION_CONFLICT` with `current_version`, and nothing is written. Archived topics cannot be edited (409; restore first). With a `repo_id`, the answer carries `anchor_validation` (as on create; advisory).",
        ),
      },
    )
    .delete(
      `${base}/:topic`,
      async ({ principal, workspace, params, headers }) => ({
        id: await deleteTopic(core, principal, workspace, params.topic, expectedVersion({ headers })),
        deleted: true as const,
      }),
      {
        params: TopicParams,
        headers: IfMatch,
        response: { 200: Deleted, ...errors(400, 401, 403, 404, 409) },
        detail: doc(
          "Delete a topic",
          "Removes the topic, its old slugs and its revisions' text. Owner/admin; an author may delete their own draft or proposal. The timeline keeps a `topic.deleted` event.",
        ),
      },
    )
    .post(
      `${base}/:topic/merge`,
      async ({ principal, workspace, params, body, set }) => {
        set.status = 201;
        return withEtag(set, await mergeTopic(core, principal, workspace, params.topic, body));
      },
      {
        parse: "json",
        params: TopicParams,
        body: MergeTopicDto,
        response: { 201: TopicView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc("Merge this topic into another (owner/admin)", `${MergeTopicDto.description} Answers with the target.`),
      },
    )
    .post(
      `${base}/:topic/move`,
      async ({ principal, workspace, params, body, set }) => {
        set.status = 201;
        return withEtag(set, await moveTopic(core, principal, workspace, params.topic, body));
      },
      {
        parse: "json",
        params: TopicParams,
        body: MoveTopicDto,
        response: { 201: TopicView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc("Move a topic: new slug and/or area (owner/admin)", MoveTopicDto.description),
      },
    );
}

/** The governance actions (propose, approve, ...), a route each. */
function governanceRoutes(r: TopicScope, base: "/topics" | "/watchers", core: ServerDeps["core"], doc: Doc): void {
  // Elysia registers a route on the instance itself, so the loop needs no reassignment.
  for (const action of GOVERNANCE_ACTIONS) {
    r.post(
      `${base}/:topic/${action}`,
      async ({ principal, workspace, params, body, headers, set }) => {
        set.status = 201;
        const expected = expectedVersion({ body, headers });
        return withEtag(set, await applyGovernance(core, principal, workspace, params.topic, action, expected));
      },
      {
        parse: "json",
        params: TopicParams,
        headers: IfMatch,
        body: Type.Optional(TransitionDto),
        response: { 201: TopicView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: doc(GOVERNANCE_DOCS[action].summary, GOVERNANCE_DOCS[action].description),
      },
    );
  }
}
