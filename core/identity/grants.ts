import { canWrite, type Principal } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import { GRANTS_LIMIT, type GrantView } from "./dto.ts";
import { fail, ok, type Result } from "./errors.ts";
import type { OAuthGrant } from "./model.ts";
import { emitGrantEvent } from "./grant-events.ts";
import { canListAllGrants, canListGrants, canRevokeGrant } from "./policy.ts";
import type { IdentityStores } from "./ports.ts";

type GrantDeps = CoreDeps<Pick<IdentityStores, "oauthGrants" | "oauthClients">>;

export interface GrantQuery {
  limit?: number;
  /** `nextCursor` of the previous page: the last grant id it served. */
  cursor?: string | null;
}

export interface GrantList {
  items: GrantView[];
  nextCursor: string | null;
}

/**
 * The workspace's live grants, newest first, in keyset pages: the caller's own, or every grant
 * for owners and admins. A faceless key has none to list (`forbidden`).
 */
export async function listGrants(deps: GrantDeps, p: Principal, q: GrantQuery = {}): Promise<Result<GrantList>> {
  if (!canListGrants(p)) return fail("forbidden", "Cannot list OAuth grants: they belong to people, and this key has none");
  const limit = q.limit ?? GRANTS_LIMIT.default;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > GRANTS_LIMIT.max) {
    return fail("invalid_request", `Invalid limit: expected 1 to ${GRANTS_LIMIT.max}`);
  }
  const who = canListAllGrants(p) ? null : p.identityId;
  const page = await deps.stores.oauthGrants.list(p.workspaceId, who, { limit: limit + 1, before: q.cursor ?? undefined });
  const items = page.slice(0, limit);
  const clients = await deps.stores.oauthClients.getMany([...new Set(items.map((g) => g.client_id))]);
  const nameOf = new Map(clients.map((c) => [c.client_id, c.client_name]));
  return ok({
    items: items.map((g) => grantView(g, nameOf.get(g.client_id) ?? null)),
    nextCursor: page.length > limit ? items.at(-1)!.id : null,
  });
}

/**
 * Ends a grant and all its tokens at once: one's own, or any of the workspace for owners and
 * admins. A faceless key has none (`forbidden`); revoking is a write (`insufficient_scope` without
 * `work:write`); to a member another person's grant reads as absent, as it does in their list
 * (and as another member's API key does).
 */
export async function revokeGrant(deps: GrantDeps, p: Principal, grantId: string): Promise<Result<OAuthGrant>> {
  if (!canListGrants(p)) return fail("forbidden", "Cannot revoke an OAuth grant: grants belong to people, and this key has none");
  if (!canWrite(p)) return fail("insufficient_scope", "Cannot revoke an OAuth grant: scope work:write is required");
  const grant = await deps.stores.oauthGrants.get(p.workspaceId, grantId);
  if (!grant || grant.revoked_at !== null || !canRevokeGrant(p, grant)) return fail("not_found", "Grant not found");
  const at = deps.clock.now().toISOString();
  await deps.stores.oauthGrants.revoke(p.workspaceId, grantId, at);
  await emitGrantEvent(deps, "oauth.grant.revoked", grant, p);
  return ok({ ...grant, revoked_at: at });
}

export function grantView(g: OAuthGrant, clientName: string | null): GrantView {
  return {
    id: g.id,
    identity_id: g.identity_id,
    client_id: g.client_id,
    client_name: clientName,
    scopes: [...g.scopes],
    created_at: g.created_at,
    last_used_at: g.last_used_at,
  };
}
