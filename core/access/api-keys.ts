import type { CoreDeps } from "../kernel/deps.ts";
import type { AccessDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { forbidden, notFound, validationFailed } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetQuery, type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { displayPrefix, generateRawKey, hashRawKey } from "./raw-key.ts";
import { type ApiKeyView, type CreateApiKeyDto, toApiKeyView } from "./dto.ts";
import type { ApiKeyRecord } from "./model.ts";
import { assertCanWrite, assertOwnerOrAdmin, canManageApiKeys, canManageOthersApiKeys } from "./policy.ts";
import type { Principal } from "./principal.ts";

export interface IssuedKey {
  record: ApiKeyRecord;
  /** The raw key: returned to the caller once, never stored in clear. */
  raw: string;
}

/** Builds a key record: hash for lookup, ciphertext for rest. Pure but for randomness and crypto. */
export async function issueKey(
  deps: CoreDeps<unknown>, // reads no store: the caller stores the record
  input: { workspaceId: string; name: string; identityId: string | null; createdBy: string | null },
): Promise<IssuedKey> {
  const raw = generateRawKey();
  const record: ApiKeyRecord = {
    id: uuidv7(),
    workspace_id: input.workspaceId,
    name: input.name,
    prefix: displayPrefix(raw),
    identity_id: input.identityId,
    created_by: input.createdBy,
    key_hash: hashRawKey(raw),
    key_ciphertext: await deps.secretBox.seal(raw),
    created_at: deps.clock.now().toISOString(),
    last_used_at: null,
  };
  return { record, raw };
}

export async function createApiKey(
  deps: AccessDeps,
  p: Principal,
  workspace: Workspace,
  dto: CreateApiKeyDto,
): Promise<ApiKeyView & { key: string }> {
  if (dto.member_id && dto.service) {
    throw validationFailed("Invalid API key request: member_id and service are exclusive", [
      { path: "/member_id", message: "cannot be combined with service" },
    ]);
  }
  if (!canManageApiKeys(p)) throw forbidden("Cannot create an API key: a service key cannot mint keys");
  // A key holds every scope of its member's role and outlives any grant: a client application
  // acting for a person would widen its own grant and keep it past revocation (ADR 051).
  if (p.via === "oauth") {
    throw forbidden("Cannot create an API key: keys are minted by the person (API key or session), not by a client application");
  }
  // A key for someone else (a service key, another member's) takes the role, checked before the scope.
  const forOther = dto.service
    ? "create a service key"
    : dto.member_id && dto.member_id !== p.memberId
    ? "create a key for another member"
    : null;
  if (forOther) assertOwnerOrAdmin(p, forOther);
  else assertCanWrite(p, "create an API key");
  let identityId: string | null = p.identityId;
  if (dto.service) identityId = null;
  else if (dto.member_id && dto.member_id !== p.memberId) {
    const member = await deps.stores.members.get(workspace.id, dto.member_id);
    if (!member) throw notFound("Member");
    identityId = member.identity_id;
  }
  const name = dto.name ?? (identityId ? "personal key" : "service key");
  const issued = await issueKey(deps, { workspaceId: workspace.id, name, identityId, createdBy: p.identityId });
  await deps.stores.apiKeys.insert(issued.record);
  await emit(deps, workspace.id, "api_key.created", p, { key_id: issued.record.id, kind: identityId ? "personal" : "service" });
  return { ...toApiKeyView(issued.record), key: issued.raw };
}

/** Owner/admin see every key; a member sees the keys that act as them. */
export async function listApiKeys(
  deps: AccessDeps,
  p: Principal,
  workspace: Workspace,
  query: OffsetQuery = {},
): Promise<OffsetResult<ApiKeyView>> {
  const page = parseOffsetPage(query);
  if (!canManageApiKeys(p)) throw forbidden("Cannot list API keys: a service key cannot manage keys");
  if (canManageOthersApiKeys(p)) {
    const { items, total } = await deps.stores.apiKeys.list(workspace.id, page);
    return toOffsetResult(items.map(toApiKeyView), total, page);
  }
  const { items, total } = await deps.stores.apiKeys.list(workspace.id, page, p.identityId);
  return toOffsetResult(items.map(toApiKeyView), total, page);
}

export async function revokeApiKey(deps: AccessDeps, p: Principal, workspace: Workspace, keyId: string): Promise<void> {
  if (!canManageApiKeys(p)) throw forbidden("Cannot revoke an API key: a service key cannot manage keys");
  assertCanWrite(p, "revoke an API key");
  if (!canManageOthersApiKeys(p)) {
    // A member may revoke only keys acting as themselves; others' keys read as absent.
    const own = await deps.stores.apiKeys.list(workspace.id, { limit: 1, offset: 0 }, p.identityId, keyId);
    if (own.items.length === 0) throw notFound("API key");
  }
  if (!(await deps.stores.apiKeys.revoke(workspace.id, keyId))) throw notFound("API key");
  await emit(deps, workspace.id, "api_key.revoked", p, { key_id: keyId });
}
