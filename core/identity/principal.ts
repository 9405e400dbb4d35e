import type { Authenticated } from "../access/mod.ts";
import type { CoreDeps } from "../deps.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import { authenticateAccessToken } from "./authenticate-token.ts";
import type { IdentityStores } from "./ports.ts";

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
