import type { WorkspaceEvent } from "./event.ts";

/** The subscriber of a stream: access's `Principal`, as far as this rule reads it. */
export interface StreamSubscriber {
  credentialId: string;
  memberId: string | null;
}

/**
 * Whether `e` ends a subscriber's live stream: the workspace is gone, the subscriber's own key
 * was revoked, or the subscriber left. Past it, the stream would show events to someone who may
 * no longer read them.
 */
export function endsStreamOf(p: StreamSubscriber, e: WorkspaceEvent): boolean {
  return (
    e.type === "workspace.deleted" ||
    (e.type === "api_key.revoked" && e.data.key_id === p.credentialId) ||
    (e.type === "oauth.grant.revoked" && e.data.grant_id === p.credentialId) ||
    (e.type === "member.removed" && p.memberId !== null && e.data.member_id === p.memberId)
  );
}
