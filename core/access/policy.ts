import { forbidden, notFound } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { Principal } from "./principal.ts";
import { hasScopesFor, insufficientScope } from "./scopes.ts";

/**
 * The shared vocabulary of permissions: small predicates every module's policy.ts is written in
 * (roles, scopes, who acts), and access's own decisions (API keys). Tenancy first: a principal of
 * another workspace is told the workspace does not exist, never that it is forbidden.
 */
export function assertInWorkspace(p: Principal, workspace: Workspace | null): asserts workspace is Workspace {
  if (!workspace || workspace.id !== p.workspaceId) throw notFound("Workspace");
}

export function isOwnerOrAdmin(p: Principal): boolean {
  return p.kind === "identity" && (p.role === "owner" || p.role === "admin");
}

export function isOwner(p: Principal): boolean {
  return p.kind === "identity" && p.role === "owner";
}

/**
 * Owner/admin operations are writes: over OAuth they need `work:write` as well as an owner or
 * admin who authorized the token. The role is checked first: a member's token gets the role's 403
 * (no scope would help), an owner's read-only token the scope's (step-up helps).
 */
export function assertOwnerOrAdmin(p: Principal, action: string): void {
  if (!isOwnerOrAdmin(p)) throw forbidden(`Cannot ${action}: owner or admin authority is required`);
  assertCanWrite(p, action);
}

export function assertOwner(p: Principal, action: string): void {
  if (!isOwner(p)) throw forbidden(`Cannot ${action}: owner authority is required`);
  assertCanWrite(p, action);
}

/** Whether the principal may write workspace content: scope `work:write` (scopes.ts). */
export function canWrite(p: Principal): boolean {
  return hasScopesFor(p, "write");
}

export function assertCanWrite(p: Principal, action: string): void {
  if (!canWrite(p)) throw insufficientScope(action, "write");
}

/** `agent` when a program acts (OAuth client, faceless key); `human` when a person does. */
export function actorKind(p: Principal): "human" | "agent" {
  return p.kind === "service" || p.via === "oauth" ? "agent" : "human";
}

/** API keys: a faceless service key manages none (it cannot mint or revoke keys, nor list them). */
export function canManageApiKeys(p: Principal): boolean {
  return p.kind !== "service";
}

/** Owners and admins manage every key of the workspace (service keys, other members' keys); a member, the keys acting as them. */
export function canManageOthersApiKeys(p: Principal): boolean {
  return isOwnerOrAdmin(p);
}
