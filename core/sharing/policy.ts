import { assertCanWrite, type Principal } from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";

/**
 * Who may share. Anyone who may write shares a topic publicly (and revokes its link) or shares a
 * note into members' inboxes; an inbox is a member's own, so a faceless service key has none.
 */
export function assertCanShare(p: Principal, action: "share a topic" | "revoke a share link" | "share a note"): void {
  assertCanWrite(p, action);
}

export function canReadInbox(p: Principal): boolean {
  return p.memberId !== null;
}

export function assertCanReadInbox(p: Principal): asserts p is Principal & { memberId: string } {
  if (!canReadInbox(p)) throw forbidden("Cannot read an inbox: a service key acts for no member");
}

/** Marking entries read changes the inbox: a write (over OAuth, `work:write`), the inbox's own member's. */
export function assertCanMarkInboxRead(p: Principal): asserts p is Principal & { memberId: string } {
  if (!canReadInbox(p)) throw forbidden("Cannot mark an inbox read: a service key acts for no member");
  assertCanWrite(p, "mark shared notes read");
}
