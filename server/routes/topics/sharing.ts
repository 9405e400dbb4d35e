import { Type } from "@sinclair/typebox";
import {
  CreatedShareLink,
  NoteShareView,
  revokeShareLink,
  ShareLinkStatus,
  shareLinkStatus,
  shareNote,
  ShareNoteDto,
  shareTopic,
} from "../../../core/sharing/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { publicOrigin } from "../../http/public-origin.ts";
import { errors } from "../../http/schemas.ts";
import { type TopicDoc as Doc, TopicParams, type TopicScope } from "./table.ts";

/**
 * A topic's public link (issue, read its state, revoke) and sharing the note with members: routes
 * of the topic table (topics.ts registers them on its own instance, so they exist under `/topics`
 * and `/watchers` alike). Members' inboxes are in ../sharing/sharing.ts, the public pages in
 * ../sharing/public-shares.ts.
 */

const RevokedShareLink = Type.Object({ id: Type.String({ description: "The revoked link's id." }), revoked: Type.Literal(true) });
const SharedNotes = Type.Object({ shared: Type.Array(NoteShareView) });

export function topicSharingRoutes(r: TopicScope, base: "/topics" | "/watchers", deps: ServerDeps, topicDoc: Doc): void {
  const core = deps.core;
  // Listed with sharing in the reference; the deprecated alias keeps its own group.
  const doc: Doc = (summary, description) =>
    base === "/topics" ? { ...topicDoc(summary, description), tags: ["sharing"] } : topicDoc(summary, description);

  r.post(
    `${base}/:topic/share`,
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
  );
  r.get(`${base}/:topic/share`, ({ workspace, params }) => shareLinkStatus(core, workspace, params.topic), {
    params: TopicParams,
    response: { 200: ShareLinkStatus, ...errors(401, 404) },
    detail: doc(
      "Whether the topic has an active public link",
      "The token itself is never shown again: revoke and create a new link to get one.",
    ),
  });
  r.delete(
    `${base}/:topic/share`,
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
  );
  r.post(
    `${base}/:topic/share-with`,
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
  );
}
