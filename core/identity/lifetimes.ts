/**
 * How long codes, tokens and sessions live, and the rules that follow from it: pure functions of
 * the instants involved (ISO 8601 strings in, ISO 8601 strings out), so tests move a clock.
 */
const SECOND = 1000;
const DAY = 86_400 * SECOND;

/** An authorization code: 60 s (OAuth 2.1 §4.1.2 recommends at most 10 minutes). */
export const CODE_TTL_MS = 60 * SECOND;
/** An access token: 1 hour. */
export const ACCESS_TOKEN_TTL_MS = 3600 * SECOND;
/** A refresh token: 30 days from its issue (each use rotates it, so from the grant's last use)… */
export const REFRESH_IDLE_MS = 30 * DAY;
/** …and never past 90 days after its grant was created. */
export const REFRESH_MAX_MS = 90 * DAY;
/** A session: 30 days, extended to 30 again when it is used with under half left. */
export const SESSION_TTL_MS = 30 * DAY;
export const SESSION_EXTEND_BELOW_MS = SESSION_TTL_MS / 2;

const at = (base: Date | string, plusMs: number) => new Date(new Date(base).getTime() + plusMs).toISOString();

export const codeExpiry = (now: Date): string => at(now, CODE_TTL_MS);
export const accessTokenExpiry = (now: Date): string => at(now, ACCESS_TOKEN_TTL_MS);
export const sessionExpiry = (now: Date): string => at(now, SESSION_TTL_MS);

/** A new refresh token's end: 30 days from now, capped at 90 days from the grant's creation. */
export function refreshTokenExpiry(now: Date, grantCreatedAt: string): string {
  return new Date(Math.min(now.getTime() + REFRESH_IDLE_MS, new Date(grantCreatedAt).getTime() + REFRESH_MAX_MS)).toISOString();
}

/** Whether something ending at `expiresAt` has ended at `now` (the end instant itself is past). */
export function isExpired(expiresAt: string, now: Date): boolean {
  return now.getTime() >= new Date(expiresAt).getTime();
}

/** Seconds left until `expiresAt` (`expires_in` of a token response), never negative. */
export function secondsLeft(expiresAt: string, now: Date): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - now.getTime()) / SECOND));
}

/** The session's new end when it should be extended (under half of its lifetime left), else null. */
export function sessionExtension(expiresAt: string, now: Date): string | null {
  return new Date(expiresAt).getTime() - now.getTime() < SESSION_EXTEND_BELOW_MS ? sessionExpiry(now) : null;
}
