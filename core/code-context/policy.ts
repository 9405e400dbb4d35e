import { assertCanWrite, assertOwnerOrAdmin, type Principal } from "../access/mod.ts";

/**
 * Who may act on code context. Reading it (match-files, retrieve, the audit, index state) takes
 * membership only; marking topics drifted takes the write scope; re-reading a repo from its code
 * host (it costs the host) takes owners or admins, as linking the repo did.
 */
export function assertCanMarkDrift(p: Principal): void {
  assertCanWrite(p, "mark drift");
}

export function assertCanRefreshRepo(p: Principal): void {
  assertOwnerOrAdmin(p, "refresh a repo's file index");
}
