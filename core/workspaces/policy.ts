import { assertOwner, assertOwnerOrAdmin, isOwner, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";
import type { Role } from "./model.ts";
import type { MemberView } from "./dto.ts";

/**
 * Who may do what to a workspace and what it holds. Reads need membership only (checked when the
 * principal is resolved); every change is a person's with the owner or admin role, and the owner
 * role is the owners' own.
 */

/** Settings, plan, areas and linked repos: owners and admins. */
export function canManageWorkspace(p: Principal): boolean {
  return isOwnerOrAdmin(p);
}

export function assertCanManageWorkspace(p: Principal, action: string): void {
  assertOwnerOrAdmin(p, action);
}

/** Deleting the workspace (and everything in it): owners only. */
export function canDeleteWorkspace(p: Principal): boolean {
  return isOwner(p);
}

export function assertCanDeleteWorkspace(p: Principal): void {
  assertOwner(p, "delete the workspace");
}

/**
 * Whether an actor may move a member from one role to another. Only owners grant or withdraw the
 * owner role, so an admin cannot promote themselves past the people who appointed them.
 */
export function canAssignRole(actor: Principal, from: Role, to: Role): boolean {
  if (!isOwnerOrAdmin(actor)) return false;
  if (from === "owner" || to === "owner") return isOwner(actor);
  return true;
}

/** Adding a member: owners and admins; adding an owner: owners. */
export function canAddMember(p: Principal, role: Role): boolean {
  return canAssignRole(p, "member", role);
}

export function assertCanAddMember(p: Principal, role: Role): void {
  assertOwnerOrAdmin(p, "add a member");
  if (!canAddMember(p, role)) throw forbidden("Cannot add an owner: only an owner can grant the owner role");
}

export function assertCanChangeRole(p: Principal, from: Role, to: Role): void {
  assertOwnerOrAdmin(p, "change a member's role");
  if (!canAssignRole(p, from, to)) throw forbidden("Cannot change role: only an owner can grant or withdraw the owner role");
}

/**
 * Removing a member: anyone may leave (remove their own membership); owners and admins remove
 * others, and an owner is removed by owners only. (The last owner stays: the store refuses it.)
 */
export function canRemoveMember(p: Principal, member: Pick<MemberView, "id" | "role">): boolean {
  if (p.memberId === member.id) return true;
  return isOwnerOrAdmin(p) && (member.role !== "owner" || isOwner(p));
}
