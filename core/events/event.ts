import { uuidv7 } from "../kernel/ids.ts";

/**
 * Something that happened in a workspace, as the event stream delivers it. `type` is a dotted
 * name (`member.added`, `api_key.revoked`, ...); `data` is small and never holds a secret.
 */
export interface WorkspaceEvent {
  id: string;
  workspace_id: string;
  type: string;
  /** identity id of the person who acted, or null for a faceless principal or the system */
  actor_id: string | null;
  at: string;
  data: Record<string, unknown>;
}

export function workspaceEvent(
  workspaceId: string,
  type: string,
  actorId: string | null,
  at: Date,
  data: Record<string, unknown> = {},
): WorkspaceEvent {
  return { id: uuidv7(at.getTime()), workspace_id: workspaceId, type, actor_id: actorId, at: at.toISOString(), data };
}
