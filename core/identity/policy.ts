import { canWrite, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import type { OAuthGrant } from "./model.ts";

/**
 * Who may see and end OAuth grants, in access's vocabulary. A grant is a person's: every person
 * sees and revokes their own; owners and admins every grant of their workspace. A faceless key has
 * none and manages none. Revoking is a write: over OAuth it takes `work:write`.
 */
export function canListGrants(p: Principal): boolean {
  return p.kind === "identity" && p.identityId !== null;
}

export function canListAllGrants(p: Principal): boolean {
  return canListGrants(p) && isOwnerOrAdmin(p);
}

export function canRevokeGrant(p: Principal, grant: OAuthGrant): boolean {
  if (!canListGrants(p) || !canWrite(p) || grant.workspace_id !== p.workspaceId) return false;
  return grant.identity_id === p.identityId || isOwnerOrAdmin(p);
}
