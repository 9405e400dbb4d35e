import type { Principal } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import { emit } from "../events/mod.ts";

/**
 * Publishes `oauth.grant.created` / `oauth.grant.revoked` (never a token). Its own file: the code
 * redemption, the token revocation and the grant operations all publish them.
 */
export async function emitGrantEvent(
  deps: CoreDeps<unknown>,
  type: "oauth.grant.created" | "oauth.grant.revoked",
  grant: { id: string; workspace_id: string; client_id: string; identity_id: string; scopes?: readonly string[] },
  actor: Principal | null,
): Promise<void> {
  await emit(deps, grant.workspace_id, type, actor, {
    grant_id: grant.id,
    client_id: grant.client_id,
    identity_id: grant.identity_id,
    ...(grant.scopes ? { scopes: [...grant.scopes] } : {}),
  });
}
