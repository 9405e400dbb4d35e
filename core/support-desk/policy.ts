import { isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";

/** Who reads the workspace's support log: owners and admins (it tells of customers' conversations with support). */
export function canReadSupportLog(p: Principal): boolean {
  return isOwnerOrAdmin(p);
}

export function assertCanReadSupportLog(p: Principal): void {
  if (!canReadSupportLog(p)) throw forbidden("Cannot read the support log: owner or admin authority is required");
}
