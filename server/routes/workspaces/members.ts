import { Type } from "@sinclair/typebox";
import {
  addMember,
  AddMemberDto,
  IdSchema,
  listMembers,
  MemberView,
  removeMember,
  setMemberRole,
  SetRoleDto,
  SlugSchema,
} from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, Deleted, errors, pageOf, PageQuery, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["members"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const MemberParams = Type.Object({ slug: SlugSchema, memberId: IdSchema }, strict);

export function memberRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "members")
    .get(
      "/members",
      async ({ workspace, query }) => {
        const { items, total, has_more } = await listMembers(core, workspace, query);
        return { members: items, total, has_more };
      },
      {
        params: SlugParams,
        query: PageQuery,
        response: { 200: pageOf("members", MemberView), ...errors(400, 401, 404) },
        detail: { ...authenticated, tags, summary: "List members", description: "Oldest first." },
      },
    )
    .post(
      "/members",
      async ({ principal, workspace, body, set }) => {
        const added = await addMember(core, principal, workspace, body);
        set.status = 201;
        return added;
      },
      {
        parse: "json",
        params: SlugParams,
        body: AddMemberDto,
        response: { 201: MemberView, ...errors(400, 401, 402, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Add a member (owner/admin)",
          description: "Creates the identity when the e-mail is new. Only an owner may add another owner. An existing member is a 409.",
        },
      },
    )
    .patch(
      "/members/:memberId",
      ({ principal, workspace, params, body }) => setMemberRole(core, principal, workspace, params.memberId, body),
      {
        parse: "json",
        params: MemberParams,
        body: SetRoleDto,
        response: { 200: MemberView, ...errors(400, 401, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Set a member's role (owner/admin)",
          description: "Only an owner grants or withdraws the owner role. Demoting the last owner is a 409 `LAST_OWNER`.",
        },
      },
    )
    .delete(
      "/members/:memberId",
      async ({ principal, workspace, params }) => {
        await removeMember(core, principal, workspace, params.memberId);
        return { id: params.memberId, deleted: true as const };
      },
      {
        params: MemberParams,
        response: { 200: Deleted, ...errors(400, 401, 403, 404, 409) },
        detail: {
          ...authenticated,
          tags,
          summary: "Remove a member (owner/admin, or yourself)",
          description:
            "Owner/admin remove members (only an owner removes an owner); anyone may remove their own membership to leave. The member's API keys for this workspace are revoked with it. Removing the last owner is a 409 `LAST_OWNER`.",
        },
      },
    );
}
