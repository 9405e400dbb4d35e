import type { ContactUnlock } from "../../../core/contacts/model.ts";

/**
 * Contacts' documents: the unlocks, the leases of their holds and how each token's unlock ends
 * (ADR 005, 055). Inserting into a unique `_id` is every lock.
 */
/** `_id` `<workspace_id>:<entity_id>:<kind>`: the unique key an unlock claims. */
export type UnlockDoc = ContactUnlock & { _id: string };
export const unlockKey = (u: Pick<ContactUnlock, "workspace_id" | "entity_id" | "kind">) => `${u.workspace_id}:${u.entity_id}:${u.kind}`;

/**
 * The lease of an unlock's hold (docs/decisions/055-unlock-hold-sweep.md), `_id` `<workspace_id>:<token>`:
 * inserted before the begin's claims and hold, deleted by whoever resolves the hold.
 */
export interface UnlockLeaseDoc {
  _id: string;
  workspace_id: string;
  token: string;
  lease_until: string;
}

/**
 * How a token's unlock ends, `_id` `<workspace_id>:<token>`: its finish (the settles it writes) or
 * its expiry (drop its pending claims). Inserting it is the lock (ADR 005): of a finish and the
 * sweep's expiry of one token exactly one inserts, and whoever meets it applies it again, the same
 * writes, so one cut short is completed. Deleted once the hold is resolved: a token's later end
 * (a repeat, a late finish) finds the resolution and writes nothing.
 */
export interface UnlockEndDoc {
  _id: string;
  workspace_id: string;
  token: string;
  /** `finish`: settle `settles`; `expire`: drop the token's pending claims. */
  kind: "finish" | "expire";
  settles: ContactUnlock[];
  resolution: { id: string; at: string; reason: string | null };
}

export const tokenKey = (workspaceId: string, token: string) => `${workspaceId}:${token}`;
