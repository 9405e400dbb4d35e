import { Type } from "@sinclair/typebox";
import { listInbox, markAllSharesRead, markShareRead, NoteShareView } from "../../../core/sharing/mod.ts";
import { IdSchema, SlugSchema } from "../../../core/workspaces/mod.ts";
import { DEFAULT_LIMIT } from "../../../core/kernel/mod.ts";
import { booleanParam, limitParam, offsetParam } from "../../http/query-schemas.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, errors, pageOf, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const ShareParams = Type.Object({ slug: SlugSchema, id: IdSchema }, strict);
const InboxQuery = Type.Object(
  {
    limit: limitParam(DEFAULT_LIMIT),
    offset: offsetParam,
    unread: booleanParam("`true`: unread only; `false`: read only."),
  },
  strict,
);
const ReadAll = Type.Object({ updated: Type.Integer({ description: "Entries that were unread." }) });

/**
 * Members' inboxes of notes shared with them. Issuing a topic's public link and sharing a note
 * are routes of the topic table (../topics/sharing.ts), under `/topics` and `/watchers` alike; the
 * public pages are in public-shares.ts.
 */
export function sharingRoutes(deps: ServerDeps) {
  const core = deps.core;
  const tags = ["sharing"];
  const doc = (summary: string, description: string) => ({ ...authenticated, tags, summary, description });

  return workspaceScope(deps, "sharing")
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
