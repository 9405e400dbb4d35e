import { unauthenticated } from "../../core/kernel/mod.ts";

/**
 * The credential a request carries, read in one place for every route
 * (docs/decisions/027-mcp-and-bearer-credentials.md): `Authorization: Bearer <value>` (RFC 6750
 * §2.1) or `x-api-key: <value>`. The value is an API key today; an OAuth access token once the
 * authorization server exists. Never read from the query string.
 *
 * Both headers at once: the same value is one credential, sent twice (some clients configure
 * both); two different values are a 401 (the credentials presented do not hold together), never a
 * silent choice between two identities. An `Authorization` header of another scheme
 * (Basic, added by a proxy) is not ours to read and counts as absent.
 */
export interface Credential {
  value: string;
  /** How it came: the `error="invalid_token"` challenge is for a bearer credential that failed. */
  scheme: "bearer" | "api-key";
}

const BEARER = /^bearer[ \t]+(.*)$/i;

/** The Authorization header's bearer value: null without one, "" for an empty `Bearer`. */
export function bearerOf(headers: Headers): string | null {
  const header = headers.get("authorization");
  if (header === null) return null;
  const match = BEARER.exec(header.trim()) ?? (/^bearer$/i.test(header.trim()) ? [header, ""] : null);
  return match ? match[1]!.trim() : null;
}

export function credentialOf(headers: Headers): Credential | null {
  const bearer = bearerOf(headers);
  const apiKey = headers.get("x-api-key")?.trim() ?? null;
  if (bearer !== null && apiKey !== null && bearer !== apiKey) {
    throw unauthenticated("Invalid credentials: Authorization: Bearer and x-api-key hold two different values; send one credential");
  }
  if (bearer !== null) {
    if (bearer === "") throw unauthenticated("Invalid credentials: the Authorization header names no bearer token");
    return { value: bearer, scheme: "bearer" };
  }
  return apiKey === null ? null : { value: apiKey, scheme: "api-key" };
}
