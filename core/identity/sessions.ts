import type { CoreDeps } from "../kernel/deps.ts";
import { isExpired, sessionExpiry, sessionExtension } from "./lifetimes.ts";
import type { Session } from "./model.ts";
import type { IdentityStores } from "./ports.ts";
import { hashSecret, isSessionTokenFormat, newSessionToken } from "./token-format.ts";

type SessionDeps = CoreDeps<Pick<IdentityStores, "sessions">>;

/**
 * Dashboard sessions as lucia-auth.com teaches them since the `lucia` package was retired: a
 * random token (20 bytes, lowercase base32) goes in the cookie; its SHA-256 (hex) is the session's
 * id, so a leaked table holds no usable token. 30 days, extended when used with under 15 left.
 */
export function sessionIdOf(token: string): string {
  return hashSecret(token);
}

/** A new session of a person: the token for the cookie (shown this once) and the session. */
export async function createSession(deps: SessionDeps, identityId: string): Promise<{ token: string; session: Session }> {
  const token = newSessionToken();
  const now = deps.clock.now();
  const session: Session = {
    id: sessionIdOf(token),
    identity_id: identityId,
    created_at: now.toISOString(),
    expires_at: sessionExpiry(now),
  };
  await deps.stores.sessions.insert(session);
  return { token, session };
}

/**
 * The session of a cookie's token, or null (an expired one is deleted). `extended`: its end moved,
 * so the cookie should be set again with the new `expires_at`.
 */
export async function validateSession(deps: SessionDeps, token: string): Promise<{ session: Session; extended: boolean } | null> {
  if (!isSessionTokenFormat(token)) return null;
  const id = sessionIdOf(token);
  const session = await deps.stores.sessions.get(id);
  if (!session) return null;
  const now = deps.clock.now();
  if (isExpired(session.expires_at, now)) {
    await deps.stores.sessions.delete(id);
    return null;
  }
  const extended = sessionExtension(session.expires_at, now);
  if (extended === null) return { session, extended: false };
  await deps.stores.sessions.setExpiry(id, extended);
  return { session: { ...session, expires_at: extended }, extended: true };
}

/** Ends one session (sign-out). */
export async function invalidateSession(deps: SessionDeps, sessionId: string): Promise<void> {
  await deps.stores.sessions.delete(sessionId);
}

/** Ends every session of a person (the provider revoked them, or the identity was deactivated). */
export async function invalidateSessionsOf(deps: SessionDeps, identityId: string): Promise<void> {
  await deps.stores.sessions.deleteAllOf(identityId);
}
