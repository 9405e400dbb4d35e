import { assertCanWrite, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import { releaseCapacity, withCapacity } from "../kernel/capacity.ts";
import { assertCanAddMember, assertCanChangeRole, assertCanRemoveMember } from "./policy.ts";
import type { WorkspaceDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { AppError, conflict, forbidden, notFound } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetQuery, type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { Workspace } from "./model.ts";
import type { AddMemberDto, MemberView, SetRoleDto } from "./dto.ts";

const lastOwner = () => new AppError("LAST_OWNER", "Cannot remove or demote the last owner: promote another member to owner first");

export async function listMembers(deps: WorkspaceDeps, ws: Workspace, query: OffsetQuery = {}): Promise<OffsetResult<MemberView>> {
  const page = parseOffsetPage(query);
  const { items, total } = await deps.stores.members.list(ws.id, page);
  return toOffsetResult(items, total, page);
}

export async function getMember(deps: WorkspaceDeps, ws: Workspace, memberId: string): Promise<MemberView> {
  const m = await deps.stores.members.get(ws.id, memberId);
  if (!m) throw notFound("Member");
  return m;
}

export async function addMember(deps: WorkspaceDeps, p: Principal, ws: Workspace, dto: AddMemberDto): Promise<MemberView> {
  const role = dto.role ?? "member";
  assertCanAddMember(p, role);
  const now = deps.clock.now().toISOString();
  const result = await withCapacity(
    deps.capacity,
    ws,
    "members",
    () =>
      deps.stores.members.add(
        { id: uuidv7(), email: dto.email.toLowerCase(), name: dto.name ?? null, created_at: now },
        { id: uuidv7(), workspace_id: ws.id, role, created_at: now, updated_at: now },
      ),
    (r) => r === "already_member",
  );
  if (result === "already_member") throw conflict("Cannot add member: this person is already a member");
  await emit(deps, ws.id, "member.added", p, { member_id: result.id, role: result.role });
  // A hook is given the host's whole deps (the ones this use case was called with).
  await deps.onMemberAdded?.(deps, ws, p.identityId, result).catch(() => {});
  return result;
}

export async function setMemberRole(
  deps: WorkspaceDeps,
  p: Principal,
  ws: Workspace,
  memberId: string,
  dto: SetRoleDto,
): Promise<MemberView> {
  // Only owners and admins learn whether a member exists; the owner role and the scope are checked then.
  if (!isOwnerOrAdmin(p)) throw forbidden("Cannot change a member's role: owner or admin authority is required");
  const current = await getMember(deps, ws, memberId);
  assertCanChangeRole(p, current.role, dto.role);
  if (current.role === dto.role) return current;
  const result = await deps.stores.members.setRole(ws.id, memberId, dto.role, deps.clock.now().toISOString());
  if (result === "last_owner") throw lastOwner();
  if (!result) throw notFound("Member");
  await emit(deps, ws.id, "member.role_changed", p, { member_id: memberId, from: current.role, to: result.role });
  return result;
}

/** Owner/admin remove members; anyone may leave (remove their own membership). */
export async function removeMember(deps: WorkspaceDeps, p: Principal, ws: Workspace, memberId: string): Promise<void> {
  if (p.memberId === memberId) assertCanWrite(p, "leave the workspace");
  else {
    // Only owners and admins learn whether a member exists (and is an owner).
    if (!isOwnerOrAdmin(p)) throw forbidden("Cannot remove a member: owner or admin authority is required");
    assertCanRemoveMember(p, await getMember(deps, ws, memberId));
  }
  const result = await deps.stores.members.remove(ws.id, memberId);
  if (result === "last_owner") throw lastOwner();
  if (result === "not_found") throw notFound("Member");
  await releaseCapacity(deps.capacity, ws, "members");
  await emit(deps, ws.id, "member.removed", p, { member_id: memberId });
}
