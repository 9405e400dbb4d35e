/**
 * Documents of sharing in the MongoDB adapter (docs/decisions/008-sharing.md).
 *
 * - `share_links`: a topic's one active link, `_id` = `<workspace_id>:<topic_id>`, so a topic
 *   cannot hold two; issuing replaces the document, revoking deletes it (a delete by `_id`).
 *   `token_hash` is unique: the public lookup starts from it alone.
 * - `note_shares`: inbox entries, `_id` = the share's id.
 */
import type { NoteShare, ShareLink } from "../../../core/sharing/model.ts";

export type ShareLinkDoc = ShareLink & { _id: string };
export type NoteShareDoc = Omit<NoteShare, "id"> & { _id: string };

export const shareLinkKey = (workspaceId: string, topicId: string) => `${workspaceId}:${topicId}`;

export function shareLinkDoc(l: ShareLink): ShareLinkDoc {
  return { _id: shareLinkKey(l.workspace_id, l.topic_id), ...l };
}

export function toShareLink(d: ShareLinkDoc): ShareLink {
  return {
    id: d.id,
    workspace_id: d.workspace_id,
    topic_id: d.topic_id,
    token_hash: d.token_hash,
    created_by: d.created_by ?? null,
    created_at: d.created_at,
  };
}

export function noteShareDoc(s: NoteShare): NoteShareDoc {
  const { id, ...rest } = s;
  return { _id: id, ...rest };
}

export function toNoteShare(d: NoteShareDoc): NoteShare {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    topic_id: d.topic_id,
    recipient_member_id: d.recipient_member_id,
    sender_id: d.sender_id ?? null,
    message: d.message ?? null,
    created_at: d.created_at,
    read_at: d.read_at ?? null,
  };
}
