import { assertCanWrite, assertOwner, assertOwnerOrAdmin, isOwner, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
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

/** The roles before the scope (as `assertOwnerOrAdmin`): an admin's read-only token adding an owner lacks the role, not a scope. */
export function assertCanAddMember(p: Principal, role: Role): void {
  if (isOwnerOrAdmin(p) && !canAddMember(p, role)) throw forbidden("Cannot add an owner: only an owner can grant the owner role");
  assertOwnerOrAdmin(p, "add a member");
}

export function assertCanChangeRole(p: Principal, from: Role, to: Role): void {
  if (isOwnerOrAdmin(p) && !canAssignRole(p, from, to)) {
    throw forbidden("Cannot change role: only an owner can grant or withdraw the owner role");
  }
  assertOwnerOrAdmin(p, "change a member's role");
}

/**
 * Removing a member: leaving is one's own write; removing someone else takes the role (and, for an
 * owner, an owner's) before the write scope.
 */
export function assertCanRemoveMember(p: Principal, member: Pick<MemberView, "id" | "role">): void {
  if (!canRemoveMember(p, member)) {
    throw forbidden(
      isOwnerOrAdmin(p)
        ? "Cannot remove an owner: owner authority is required"
        : "Cannot remove a member: owner or admin authority is required",
    );
  }
  assertCanWrite(p, p.memberId === member.id ? "leave the workspace" : "remove a member");
}

/**
 * Removing a member: anyone may leave (remove their own membership); owners and admins remove
 * others, and an owner is removed by owners only. (The last owner stays: the store refuses it.)
 */
export function canRemoveMember(p: Principal, member: Pick<MemberView, "id" | "role">): boolean {
  if (p.memberId === member.id) return true;
  return isOwnerOrAdmin(p) && (member.role !== "owner" || isOwner(p));
}
