import { forbidden, notFound } from "../kernel/errors.ts";
import type { Role, Workspace } from "../workspaces/mod.ts";
import type { Principal } from "./principal.ts";

/**
 * Policies: small predicates, one place. Tenancy first: a principal of another workspace is told
 * the workspace does not exist, never that it is forbidden.
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

export function assertOwnerOrAdmin(p: Principal, action: string): void {
  if (!isOwnerOrAdmin(p)) throw forbidden(`Cannot ${action}: owner or admin authority is required`);
}

export function assertOwner(p: Principal, action: string): void {
  if (!isOwner(p)) throw forbidden(`Cannot ${action}: owner authority is required`);
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

/** Whether the principal may write workspace content. Over OAuth that takes scope `work:write`. */
export function canWrite(p: Principal): boolean {
  return p.scopes === undefined || p.scopes.includes("work:write");
}

export function assertCanWrite(p: Principal, action: string): void {
  if (!canWrite(p)) throw forbidden(`Cannot ${action}: scope work:write is required`);
}

/** `agent` when a program acts (OAuth client, faceless key); `human` when a person does. */
export function actorKind(p: Principal): "human" | "agent" {
  return p.kind === "service" || p.via === "oauth" ? "agent" : "human";
}

/**
 * Whether the principal may relate topics (add a typed relation). Over OAuth that takes scope
 * `topics:write`; API keys and sessions carry the member's full role.
 */
export function canRelateTopics(p: Principal): boolean {
  return p.scopes === undefined || p.scopes.includes("topics:write");
}

export function assertCanRelateTopics(p: Principal): void {
  if (!canRelateTopics(p)) throw forbidden("Cannot add a relation: scope topics:write is required");
}

/**
 * Whether the principal may delete a topic relation: people only. A faceless key or an OAuth
 * client (an agent, `actorKind`) is refused, whatever its role or scopes.
 */
export function canDeleteRelation(p: Principal): boolean {
  return actorKind(p) === "human" && canWrite(p);
}

export function assertCanDeleteRelation(p: Principal): void {
  if (!canDeleteRelation(p)) throw forbidden("Cannot delete a relation: only a person may (not a faceless key or an OAuth client)");
}
