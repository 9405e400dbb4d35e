import { Type } from "@sinclair/typebox";
import { createTag, CreateTagDto, deleteTag, listTags, TagView, updateTag, UpdateTagDto } from "../../../core/topics/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, errors, pageOf, PageQuery, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["tags"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const TagParams = Type.Object(
  { slug: SlugSchema, name: Type.String({ minLength: 1, maxLength: 256, description: "A tag name; normalised like every tag name." }) },
  strict,
);
const TagDeleted = Type.Object({
  name: Type.String(),
  deleted: Type.Literal(true),
  topics: Type.Integer({ description: "Topics the tag was detached from." }),
});

export function tagRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "tags")
    .get(
      "/tags",
      async ({ workspace, query }) => {
        const { items, total, has_more } = await listTags(core, workspace, query);
        return { tags: items, total, has_more };
      },
      {
        params: SlugParams,
        query: PageQuery,
        response: { 200: pageOf("tags", TagView), ...errors(400, 401, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "List tags",
          description: "Most-used first (topic count, archived topics included), then by name.",
        },
      },
    )
    .post(
      "/tags",
      async ({ principal, workspace, body, set }) => {
        const { tag, created } = await createTag(core, principal, workspace, body);
        set.status = created ? 201 : 200;
        return tag;
      },
      {
        parse: "json",
        params: SlugParams,
        body: CreateTagDto,
        response: { 200: TagView, 201: TagView, ...errors(400, 401, 403, 404, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Register a tag (idempotent)",
          description:
            "201 when created; 200 when the tag existed (a given description replaces its description). The name is normalised: trimmed, lowercase, whitespace runs become one dash.",
        },
      },
    )
    .patch("/tags/:name", ({ principal, workspace, params, body }) => updateTag(core, principal, workspace, params.name, body), {
      parse: "json",
      params: TagParams,
      body: UpdateTagDto,
      response: { 200: TagView, ...errors(400, 401, 403, 404, 413) },
      detail: { ...authenticated, tags, summary: "Rename and/or describe a tag", description: UpdateTagDto.description },
    })
    .delete(
      "/tags/:name",
      async ({ principal, workspace, params }) => ({
        ...(await deleteTag(core, principal, workspace, params.name)),
        deleted: true as const,
      }),
      {
        params: TagParams,
        response: { 200: TagDeleted, ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "Delete a tag (owner/admin)",
          description: "Detaches it from every topic (each such topic gets a new version) and unregisters it.",
        },
      },
    );
}
