import { Type } from "@sinclair/typebox";
import { CriterionView, getCriterion, reviseCriterion, ReviseCriterionDto } from "../../../core/radar/mod.ts";
import { TopicSlugSchema } from "../../../core/topics/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { withEtag } from "../../http/etag.ts";
import { expectedVersion } from "../../http/expected-version.ts";
import { IfMatchHeader } from "../../http/query-schemas.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["radar"];
const CriterionParams = Type.Object({ slug: SlugSchema, criterionSlug: TopicSlugSchema }, strict);
const IfMatch = Type.Object({ "if-match": IfMatchHeader });

/** A criterion's routes: a view of a topic that holds a `radar-criterion` block, and its revision. */
export function criterionRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "criteria")
    .get(
      "/radar/criteria/:criterionSlug",
      async ({ workspace, params, set }) => withEtag(set, await getCriterion(core, workspace, params.criterionSlug)),
      {
        params: CriterionParams,
        response: { 200: CriterionView, ...errors(400, 401, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "Read a criterion",
          description:
            "A criterion is a topic tagged `radar-criterion` whose body holds exactly one fenced ```` ```radar-criterion ```` block of JSON `{kind, filter}`; its `version` and `trust` are the topic's, and `ETag` carries the version. A topic without the tag, without the block, or whose block is invalid (two blocks, bad JSON, a filter that does not validate) is a 404 `NOT_FOUND`, the block's problems in `details`. An old slug answers with the topic it now names.",
        },
      },
    )
    .patch(
      "/radar/criteria/:criterionSlug",
      async ({ principal, workspace, params, body, headers, set }) =>
        withEtag(set, await reviseCriterion(core, principal, workspace, params.criterionSlug, body, expectedVersion({ body, headers }))),
      {
        parse: "json",
        params: CriterionParams,
        headers: IfMatch,
        body: ReviseCriterionDto,
        response: { 200: CriterionView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Revise a criterion",
          description:
            "Edits the criterion's topic as `PATCH /topics/{topic}` does (same permission and governance: a reviewed topic stays reviewed), making a new version in its history; a change to nothing makes none. `filter` replaces the block's filter (of the criterion's kind, else 400; an `employee_count` with `min` > `max` is a 400), `title` the topic's title. Optimistic concurrency: `If-Match` or `expected_version`; a stale one is 409 `VERSION_CONFLICT` with `current_version`, and nothing is written. Archived topics cannot be edited (409).",
        },
      },
    );
}
