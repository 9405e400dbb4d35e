import { type Authenticated, type Principal, type Scope, SCOPES } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { Role, Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { Session } from "./model.ts";
import { authenticateAccessToken } from "./authenticate-token.ts";
import type { IdentityStores } from "./ports.ts";

/** What a session holds: every scope, as an API key does; the person's role decides. */
export const SESSION_SCOPES: readonly Scope[] = SCOPES;

type PrincipalDeps = CoreDeps<Pick<IdentityStores, "oauthGrants" | "oauthTokens"> & Pick<WorkspaceStores, "workspaces" | "members">>;

/**
 * The principal of an OAuth access token, or null (a 401 `invalid_token`): the person who
 * authorized it, in the token's workspace, with their **current** role there (read on every call,
 * so a demotion bites at once; a former member's token is refused), and the grant's scopes. Nothing
 * is cached: revoking the token or its grant ends it on the next request, on every instance.
 */
export async function authenticateOAuthToken(deps: PrincipalDeps, raw: string): Promise<Authenticated | null> {
  const token = await authenticateAccessToken(deps, raw);
  if (!token) return null;
  const [workspace, member] = await Promise.all([
    deps.stores.workspaces.getById(token.workspace_id),
    deps.stores.members.findByIdentity(token.workspace_id, token.identity_id),
  ]);
  if (!workspace || !member) return null;
  return {
    workspace,
    principal: {
      workspaceId: workspace.id,
      kind: "identity",
      identityId: token.identity_id,
      memberId: member.id,
      role: member.role,
      via: "oauth",
      // The grant: what a person revokes (`DELETE …/oauth/grants/{id}`) to end the token.
      credentialId: token.grant_id,
      scopes: token.scopes,
      clientId: token.client_id,
    },
  };
}

type SessionPrincipalDeps = CoreDeps<Pick<IdentityStores, "sessions"> & Pick<WorkspaceStores, "members">>;

/**
 * The principal of a dashboard session in one workspace, or null when the person is no member
 * there (the route answers 404, as for any credential of another workspace). A session belongs to
 * a person, not to a workspace: the membership, and so the role, is read on every request. It
 * holds every scope, like an API key (docs/decisions/030-sessions-oidc-identity-webhook.md).
 */
export async function sessionPrincipal(
  deps: SessionPrincipalDeps,
  session: Session,
  workspace: Workspace,
): Promise<Authenticated | null> {
  const member = await deps.stores.members.findByIdentity(workspace.id, session.identity_id);
  if (!member) return null;
  return { workspace, principal: sessionPrincipalOf(session, workspace.id, member.id, member.role) };
}

/** A session's principal; outside any workspace (`GET /me`) workspace, member and role are empty. */
export function sessionPrincipalOf(session: Session, workspaceId: string, memberId: string | null, role: Role | null): Principal {
  return {
    workspaceId,
    kind: "identity",
    identityId: session.identity_id,
    memberId,
    role,
    via: "session",
    credentialId: session.id,
    scopes: SESSION_SCOPES,
  };
}
