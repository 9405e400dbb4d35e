import { type ApiKeyView, assertCanWrite, issueKey, type Principal, toApiKeyView } from "../access/mod.ts";
import type { WorkspaceDeps } from "./ports.ts";
import { conflict, forbidden, notFound, validationFailed } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { Identity, Member, Workspace } from "./model.ts";
import type { CreateWorkspaceDto } from "./dto.ts";
import { DEFAULT_SETTINGS } from "./workspace.ts";

export interface Bootstrapped {
  workspace: Workspace;
  owner: Identity;
  member: Member;
  api_key: ApiKeyView & { key: string };
}

/**
 * Creates a workspace with its owner and the owner's first API key. Without credentials it also
 * creates the owner identity, whose e-mail must be new: handing out a key that acts as an
 * existing person to whoever knows their address would be an impersonation hole. With
 * credentials (an API key, an OAuth token with `work:write`, a dashboard session), the caller's
 * identity owns the new workspace.
 */
export async function bootstrapWorkspace(
  deps: WorkspaceDeps,
  caller: Principal | null,
  dto: CreateWorkspaceDto,
): Promise<Bootstrapped> {
  const now = deps.clock.now().toISOString();
  let owner: Identity;
  let isNew: boolean;
  if (caller) {
    if (caller.kind !== "identity" || !caller.identityId) {
      throw forbidden("Cannot create a workspace: a service key has no person to own it");
    }
    // A write: an OAuth token needs `work:write` (a key or a session holds every scope).
    assertCanWrite(caller, "create a workspace");
    if (dto.owner_email !== undefined || dto.owner_name !== undefined) {
      throw validationFailed("Invalid workspace: owner_email and owner_name are for unauthenticated bootstrap only", [
        { path: "/owner_email", message: "must be omitted when authenticated" },
      ]);
    }
    const existing = await deps.stores.identities.getById(caller.identityId);
    if (!existing) throw notFound("Identity");
    owner = existing;
    isNew = false;
  } else {
    if (!dto.owner_email) {
      throw validationFailed("Invalid workspace: owner_email is required without credentials", [
        { path: "/owner_email", message: "required" },
      ]);
    }
    owner = { id: uuidv7(), email: dto.owner_email.toLowerCase(), name: dto.owner_name ?? null, created_at: now };
    isNew = true;
  }

  const workspace: Workspace = {
    id: uuidv7(),
    slug: dto.slug,
    name: dto.name ?? dto.slug,
    plan: "free",
    settings: { ...DEFAULT_SETTINGS },
    created_at: now,
    updated_at: now,
  };
  const member: Member = {
    id: uuidv7(),
    workspace_id: workspace.id,
    identity_id: owner.id,
    role: "owner",
    created_at: now,
    updated_at: now,
  };
  const key = await issueKey(deps, { workspaceId: workspace.id, name: "owner key", identityId: owner.id, createdBy: owner.id });
  const result = await deps.stores.workspaces.bootstrap({ workspace, owner: { identity: owner, isNew }, member, apiKey: key.record });
  if (result === "slug_taken") throw conflict(`Workspace slug is taken: ${dto.slug}`);
  if (result === "email_taken") {
    throw conflict("Cannot create the owner: an identity with this e-mail exists; call POST /workspaces with one of its API keys");
  }
  return { workspace, owner, member, api_key: { ...toApiKeyView(key.record), key: key.raw } };
}
