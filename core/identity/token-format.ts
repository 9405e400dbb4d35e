import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/**
 * The opaque secrets of the identity module: random bytes from `crypto.getRandomValues`, written
 * in lowercase base32 without padding (lucia-auth.com's session tokens, on `@oslojs/encoding`),
 * behind a prefix that says what they are (a secret scanner can match it; a log reader sees it).
 * Only their SHA-256 (hex) is stored, and looked up.
 */
export const ACCESS_TOKEN_PREFIX = "wkat_";
export const REFRESH_TOKEN_PREFIX = "wkrt_";
export const CODE_PREFIX = "wkac_";
export const CLIENT_ID_PREFIX = "wkc_";
export const CLIENT_SECRET_PREFIX = "wkcs_";

/** 256 bits for tokens, codes and client secrets. */
export const SECRET_BYTES = 32;
/** Sessions: 20 bytes (160 bits), as lucia-auth.com's guide. */
export const SESSION_TOKEN_BYTES = 20;
/** Client ids are public: 128 bits keep them unguessable all the same. */
export const CLIENT_ID_BYTES = 16;

/** `n` random bytes in lowercase base32, no padding. */
export function randomBase32(n: number): string {
  const bytes = new Uint8Array(n);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** SHA-256 of a token or secret, lowercase hex: what is stored and looked up. */
export function hashSecret(raw: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(raw)));
}

export const newAccessToken = () => ACCESS_TOKEN_PREFIX + randomBase32(SECRET_BYTES);
export const newRefreshToken = () => REFRESH_TOKEN_PREFIX + randomBase32(SECRET_BYTES);
export const newAuthorizationCode = () => CODE_PREFIX + randomBase32(SECRET_BYTES);
export const newClientId = () => CLIENT_ID_PREFIX + randomBase32(CLIENT_ID_BYTES);
export const newClientSecret = () => CLIENT_SECRET_PREFIX + randomBase32(SECRET_BYTES);
export const newSessionToken = () => randomBase32(SESSION_TOKEN_BYTES);

/** base32 of n bytes without padding: ceil(8n / 5) characters. */
const base32Length = (n: number) => Math.ceil((n * 8) / 5);
const shaped = (prefix: string, bytes: number) => new RegExp(`^${prefix}[a-z2-7]{${base32Length(bytes)}}$`);
const ACCESS = shaped(ACCESS_TOKEN_PREFIX, SECRET_BYTES);
const REFRESH = shaped(REFRESH_TOKEN_PREFIX, SECRET_BYTES);
const CODE = shaped(CODE_PREFIX, SECRET_BYTES);
const SESSION = shaped("", SESSION_TOKEN_BYTES);

/** Whether a string has the shape of one of ours: anything else is refused before a store is asked. */
export const isAccessTokenFormat = (raw: string) => ACCESS.test(raw);
export const isRefreshTokenFormat = (raw: string) => REFRESH.test(raw);
export const isAuthorizationCodeFormat = (raw: string) => CODE.test(raw);
export const isSessionTokenFormat = (raw: string) => SESSION.test(raw);
