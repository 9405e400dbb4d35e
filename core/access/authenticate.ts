import type { AccessDeps } from "./ports.ts";
import { unauthenticated } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { hashRawKey, LAST_USED_RESOLUTION_MS, looksLikeRawKey } from "./raw-key.ts";
import type { Principal } from "./principal.ts";
import { API_KEY_SCOPES } from "./scopes.ts";

export interface Authenticated {
  principal: Principal;
  workspace: Workspace;
}

/** Resolves a raw API key to its principal, or throws UNAUTHENTICATED. One store lookup. */
export async function authenticateApiKey(deps: AccessDeps, raw: string): Promise<Authenticated> {
  if (!looksLikeRawKey(raw)) throw unauthenticated("Invalid API key");
  const match = await deps.stores.apiKeys.findByHash(hashRawKey(raw));
  if (!match) throw unauthenticated("Invalid API key");
  const { key, workspace, member } = match;
  if (key.identity_id && !member) throw unauthenticated("Invalid API key: its owner is no longer a member");

  const now = deps.clock.now();
  if (!key.last_used_at || now.getTime() - Date.parse(key.last_used_at) >= LAST_USED_RESOLUTION_MS) {
    // Bookkeeping must never fail or slow the request it rides on.
    deps.stores.apiKeys.touch(workspace.id, key.id, now.toISOString()).catch(() => {});
  }
  return {
    workspace,
    principal: {
      workspaceId: workspace.id,
      kind: key.identity_id ? "identity" : "service",
      identityId: key.identity_id,
      memberId: member?.id ?? null,
      role: member?.role ?? null,
      via: "api_key",
      credentialId: key.id,
      // A key acts with its member's full role: every scope (scopes.ts).
      scopes: API_KEY_SCOPES,
    },
  };
}
