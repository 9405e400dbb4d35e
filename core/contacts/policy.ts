import { assertCanWrite, canWrite, type Principal } from "../access/mod.ts";

/**
 * Contacts' decisions, in access's vocabulary (ADR 018): unlocking contact paths and enriching a
 * run's results spend the workspace's credits, so both are for whoever may write (scope
 * `work:write`); quoting is free and open to every reader.
 */
export const canUnlockContacts = (p: Principal): boolean => canWrite(p);

export function assertCanUnlockContacts(p: Principal): void {
  assertCanWrite(p, "unlock contact paths");
}

export const canEnrich = (p: Principal): boolean => canWrite(p);

export function assertCanEnrich(p: Principal): void {
  assertCanWrite(p, "enrich radar results");
}
