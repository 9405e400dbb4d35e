import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "../kernel/mac.ts";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";

/**
 * PKCE (RFC 7636) with S256 only, for every client, confidential ones too (OAuth 2.1 §4.1.1).
 * A verifier is 43 to 128 unreserved characters; its challenge is BASE64URL(SHA-256(verifier)),
 * 43 characters.
 */
export const CODE_CHALLENGE_METHODS = ["S256"] as const;

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isCodeVerifier(value: string): boolean {
  return VERIFIER.test(value);
}

export function isCodeChallenge(value: string): boolean {
  return CHALLENGE.test(value);
}

/** The S256 challenge of a verifier. */
export function s256Challenge(verifier: string): string {
  return encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
}

/** Whether `verifier` answers `challenge` (S256), compared in constant time. A malformed verifier never does. */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isCodeChallenge(challenge)) return false;
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(s256Challenge(verifier)), enc.encode(challenge));
}
