import type { CoreDeps } from "../deps.ts";
import type { MemberAddedHook } from "../workspaces/mod.ts";
import type { NoteSharedHook } from "../sharing/mod.ts";
import { queueMail } from "./send-job.ts";

async function nameOf(deps: CoreDeps, identityId: string | null): Promise<string | null> {
  if (!identityId) return null;
  const who = await deps.stores.identities.getById(identityId);
  return who ? (who.name ?? who.email) : null;
}

const onMemberAdded: MemberAddedHook = async (deps, ws, actor, member) => {
  if (actor !== null && actor === member.identity_id) return;
  await queueMail(deps, ws.id, {
    ref: `member:${member.id}`,
    identity_id: member.identity_id,
    to: member.email,
    list: "membership",
    content: {
      template: "member_added",
      workspace_name: ws.name,
      workspace_slug: ws.slug,
      role: member.role,
      added_by: await nameOf(deps, actor),
    },
  });
};

const onNoteShared: NoteSharedHook = async (deps, ws, actor, topic, shares) => {
  const sharedBy = await nameOf(deps, actor);
  for (const share of shares) {
    const member = await deps.stores.members.get(ws.id, share.recipient_member_id);
    if (!member || member.identity_id === actor) continue;
    await queueMail(deps, ws.id, {
      ref: `share:${share.id}`,
      identity_id: member.identity_id,
      to: member.email,
      list: "shared_notes",
      content: {
        template: "note_shared",
        workspace_name: ws.name,
        workspace_slug: ws.slug,
        topic_title: topic.title,
        topic_slug: topic.slug,
        shared_by: sharedBy,
        message: share.message,
      },
    });
  }
};

/**
 * Mail's part in other modules' use cases, through the ports they declare (workspaces'
 * `MemberAddedHook`, sharing's `NoteSharedHook`): a host that gives core `mail` settings spreads
 * these into its `CoreDeps` too.
 */
export const mailHooks = { onMemberAdded, onNoteShared } satisfies Required<Pick<CoreDeps, "onMemberAdded" | "onNoteShared">>;
