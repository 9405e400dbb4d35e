import type { Principal } from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";

/**
 * Who may do what with credits. Reading is every member's and service key's of the workspace
 * (tenancy is checked before). Granting is the platform operator's alone (ADR 021): no principal
 * of a workspace, owners included, may add credits.
 */
export interface PlatformOperator {
  kind: "platform_operator";
}

export const PLATFORM_OPERATOR: PlatformOperator = { kind: "platform_operator" };

export type CreditActor = Principal | PlatformOperator;

export function canGrantCredits(actor: CreditActor): actor is PlatformOperator {
  return actor.kind === "platform_operator";
}

export function assertCanGrantCredits(actor: CreditActor): asserts actor is PlatformOperator {
  if (!canGrantCredits(actor)) throw forbidden("Cannot grant credits: only the platform operator may");
}
