import { Type } from "@sinclair/typebox";
import { CreatedShareLink, NoteShareView, ShareLinkStatus, ShareNoteDto } from "../../core/sharing/dto.ts";
import { listInbox, markAllSharesRead, markShareRead, shareNote } from "../../core/sharing/note-shares.ts";
import { revokeShareLink, shareLinkStatus, shareTopic } from "../../core/sharing/share-links.ts";
import { TopicSlugSchema } from "../../core/topics/dto.ts";
import { IdSchema, SlugSchema } from "../../core/workspaces/dto.ts";
import { DEFAULT_LIMIT } from "../../core/kernel/paging.ts";
import { booleanParam, limitParam, offsetParam } from "../http/query-schemas.ts";
import type { ServerDeps } from "../deps.ts";
import { authenticated, errors, pageOf, strict } from "../http/schemas.ts";
import { workspaceScope } from "./workspace-scope.ts";
import { publicOrigin } from "../http/public-origin.ts";

const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const TopicParams = Type.Object({ slug: SlugSchema, topic: TopicSlugSchema }, strict);
const ShareParams = Type.Object({ slug: SlugSchema, id: IdSchema }, strict);
const InboxQuery = Type.Object(
  {
    limit: limitParam(DEFAULT_LIMIT),
    offset: offsetParam,
    unread: booleanParam("`true`: unread only; `false`: read only."),
  },
  strict,
);
const RevokedShareLink = Type.Object({ id: Type.String({ description: "The revoked link's id." }), revoked: Type.Literal(true) });
const SharedNotes = Type.Object({ shared: Type.Array(NoteShareView) });
const ReadAll = Type.Object({ updated: Type.Integer({ description: "Entries that were unread." }) });

/**
 * Sharing inside a workspace: a topic's public link (issue, read its state, revoke) and notes
 * shared with members, read from each member's inbox. The public pages are in public-shares.ts.
 */
export function sharingRoutes(deps: ServerDeps) {
  const core = deps.core;
  const tags = ["sharing"];
  const doc = (summary: string, description: string) => ({ ...authenticated, tags, summary, description });

  return workspaceScope(deps, "sharing")
    .post(
      "/topics/:topic/share",
      async ({ principal, workspace, params, request, set }) => {
        const issued = await shareTopic(core, principal, workspace, params.topic);
        set.status = 201;
        return {
          token: issued.token,
          url: `${publicOrigin(request, deps.config.publicUrl, deps.rateLimits.trustProxy)}${issued.path}`,
          path: issued.path,
          created_at: issued.created_at,
        };
      },
      {
        params: TopicParams,
        response: { 201: CreatedShareLink, ...errors(401, 403, 404, 409) },
        detail: doc(
          "Create the topic's public read-only link",
          "Anyone who may write. Issues a link with an unguessable token (256 random bits, base64url); the token is stored only as its SHA-256, so it is shown in this response only. A topic has one active link: this revokes the previous one. The link opens `GET /s/{token}` (HTML) and `GET /s/{token}/raw` (Markdown), at the server's root and under `/api/v1`, without authentication, showing the topic as it is at each request. Archived topics cannot be shared (409). Deleting the topic or the workspace removes the link.",
        ),
      },
    )
    .get("/topics/:topic/share", ({ workspace, params }) => shareLinkStatus(core, workspace, params.topic), {
      params: TopicParams,
      response: { 200: ShareLinkStatus, ...errors(401, 404) },
      detail: doc(
        "Whether the topic has an active public link",
        "The token itself is never shown again: revoke and create a new link to get one.",
      ),
    })
    .delete(
      "/topics/:topic/share",
      async ({ principal, workspace, params }) => ({
        id: await revokeShareLink(core, principal, workspace, params.topic),
        revoked: true as const,
      }),
      {
        params: TopicParams,
        response: { 200: RevokedShareLink, ...errors(401, 403, 404) },
        detail: doc(
          "Revoke the topic's public link",
          "Anyone who may write. The very next request for the link's page is a 404. A topic without an active link is a 404.",
        ),
      },
    )
    .post(
      "/topics/:topic/share-with",
      async ({ principal, workspace, params, body, set }) => {
        const shared = await shareNote(core, principal, workspace, params.topic, body);
        set.status = 201;
        return { shared };
      },
      {
        parse: "json",
        params: TopicParams,
        body: ShareNoteDto,
        response: { 201: SharedNotes, ...errors(400, 401, 403, 404, 413) },
        detail: doc(
          "Share the note with members",
          "Anyone who may write. Puts the topic in each recipient's inbox (`GET /workspaces/{slug}/shared`), with the optional message: one entry per distinct member id. Every id must be a member of this workspace, else a 400 `VALIDATION_FAILED` whose details name each bad id, and nothing is shared. Answers with the created entries.",
        ),
      },
    )
    .get(
      "/shared",
      async ({ principal, workspace, query }) => {
        const { items, total, has_more } = await listInbox(core, principal, workspace, query);
        return { shared: items, total, has_more };
      },
      {
        params: SlugParams,
        query: InboxQuery,
        response: { 200: pageOf("shared", NoteShareView), ...errors(400, 401, 403, 404) },
        detail: doc(
          "The caller's inbox of shared notes",
          "Notes shared with the member the key acts as, newest first, each with the topic's slug, title and trust verdict as they are now. `unread=true` lists unread entries only, `unread=false` read ones only. A faceless service key acts for no member and has no inbox: 403.",
        ),
      },
    )
    .post(
      "/shared/read-all",
      async ({ principal, workspace, set }) => {
        set.status = 201;
        return markAllSharesRead(core, principal, workspace);
      },
      {
        params: SlugParams,
        response: { 201: ReadAll, ...errors(401, 403, 404) },
        detail: doc(
          "Mark the caller's whole inbox read",
          "Answers with how many entries were unread. A faceless service key has no inbox: 403.",
        ),
      },
    )
    .post(
      "/shared/:id/read",
      async ({ principal, workspace, params, set }) => {
        set.status = 201;
        return markShareRead(core, principal, workspace, params.id);
      },
      {
        params: ShareParams,
        response: { 201: NoteShareView, ...errors(400, 401, 403, 404) },
        detail: doc(
          "Mark an inbox entry read",
          "Only the recipient: another member's entry is a 404, as an unknown one. Marking an entry read again keeps its first `read_at`. A faceless service key has no inbox: 403.",
        ),
      },
    );
}
