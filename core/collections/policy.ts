import { assertCanWrite, canWrite, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";
import type { Collection } from "./model.ts";

/**
 * Who may do what to collections, records and entities. Anyone who may write (`canWrite`) creates
 * and changes them; purging a collection (it and every record, for good) is for the workspace's
 * owners and admins and for the collection's owner.
 */

/** The collection's owner: its named owner, else whoever created it. */
export function ownsCollection(p: Principal, c: Pick<Collection, "owner_identity_id" | "created_by">): boolean {
  return p.identityId !== null && (c.owner_identity_id === p.identityId || (c.owner_identity_id === null && c.created_by === p.identityId));
}

export function canPurgeCollection(p: Principal, c: Pick<Collection, "owner_identity_id" | "created_by">): boolean {
  return canWrite(p) && (isOwnerOrAdmin(p) || ownsCollection(p, c));
}

/** The role (or ownership) before the scope, as `assertOwnerOrAdmin`: a token missing only `work:write` is told so. */
export function assertCanPurgeCollection(p: Principal, c: Pick<Collection, "owner_identity_id" | "created_by">): void {
  if (!isOwnerOrAdmin(p) && !ownsCollection(p, c)) {
    throw forbidden("Cannot purge collection: only workspace owners and admins, and the collection's owner, may");
  }
  assertCanWrite(p, "purge a collection");
}
