import { assertOwner, isOwnerOrAdmin, type Principal } from "../access/mod.ts";
import type { PlatformOperator } from "../credits/mod.ts";
import { forbidden } from "../kernel/errors.ts";

/**
 * Offers' decisions: the platform operator (PLATFORM_ADMIN_KEY) issues offers and sets
 * contracts; a workspace's owners and admins read its offers; only an owner accepts one (it
 * commits the workspace to a price).
 */
export function assertPlatformOperator(actor: Principal | PlatformOperator, action: string): asserts actor is PlatformOperator {
  if (actor.kind !== "platform_operator") throw forbidden(`Cannot ${action}: only the platform operator may`);
}

export function assertCanReadOffers(p: Principal): void {
  if (!isOwnerOrAdmin(p)) throw forbidden("Cannot read billing offers: owner or admin authority is required");
}

export function assertCanAcceptOffer(p: Principal): void {
  assertOwner(p, "accept a billing offer");
}
