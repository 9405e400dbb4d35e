import { type Authenticated, canWrite, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import { fail, ok, type Result } from "./errors.ts";
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

/**
 * Who may decide a client's authorization request (ADR 029, 044): a person, by their own API key
 * or signed in. An OAuth token never approves a client (`forbidden`), nor does a faceless key, which
 * acts for no person. The decider's workspace must be the one a workspace mount pins (`pinned`),
 * and the one the decider names, if any (`named`); another is `not_found`, as another workspace's
 * key is everywhere.
 */
export function checkConsentDecider(auth: Authenticated, pinned: string | null, named?: string | null): Result<Authenticated> {
  if (auth.principal.via === "oauth") return fail("forbidden", "Cannot authorize a client: decide with a person's API key, or signed in");
  if (auth.principal.kind !== "identity") return fail("forbidden", "Cannot authorize a client: a service key acts for no person");
  if (pinned !== null && auth.workspace.slug !== pinned) return fail("not_found", "Workspace not found");
  if (named && named !== auth.workspace.slug) return fail("not_found", "Workspace not found");
  return ok(auth);
}
