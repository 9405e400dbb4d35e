import { MAX_CLIENT_NAME_LENGTH, MAX_CLIENT_URI_LENGTH, MAX_REDIRECT_URIS } from "./dto.ts";
import { fail, ok, type Result } from "./errors.ts";
import { CLIENT_AUTH_METHODS, type ClientAuthMethod, GRANT_TYPES, type GrantType, RESPONSE_TYPES, type ResponseType } from "./model.ts";
import { checkRedirectUri } from "./redirect-uri.ts";
import { isScope } from "./scopes.ts";

/** Client metadata once read (RFC 7591 §2), defaults applied. */
export interface ClientMetadata {
  redirect_uris: string[];
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  token_endpoint_auth_method: ClientAuthMethod;
  grant_types: GrantType[];
  response_types: ResponseType[];
  scope: string | null;
}

/**
 * Reads a registration body: `redirect_uris` required; the RFC's defaults
 * (`client_secret_basic`, `["authorization_code"]`, `["code"]`); unknown fields ignored (§2).
 * A bad redirect URI is `invalid_redirect_uri`, any other bad field `invalid_client_metadata`.
 */
export function readClientMetadata(body: unknown): Result<ClientMetadata> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return fail("invalid_client_metadata", "Invalid client metadata: expected a JSON object");
  }
  const b = body as Record<string, unknown>;
  const uris = b.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((u) => typeof u === "string")) {
    return fail("invalid_redirect_uri", `Invalid redirect_uris: expected 1 to ${MAX_REDIRECT_URIS} strings`);
  }
  for (const u of uris as string[]) {
    const check = checkRedirectUri(u);
    if (!check.ok) return fail("invalid_redirect_uri", check.reason);
  }
  const method = b.token_endpoint_auth_method ?? "client_secret_basic";
  if (!(CLIENT_AUTH_METHODS as readonly unknown[]).includes(method)) {
    return fail("invalid_client_metadata", `Invalid token_endpoint_auth_method: expected one of ${CLIENT_AUTH_METHODS.join(", ")}`);
  }
  const grants = subset(b.grant_types, GRANT_TYPES, ["authorization_code"]);
  if (!grants) return fail("invalid_client_metadata", `Invalid grant_types: expected a subset of ${GRANT_TYPES.join(", ")}`);
  if (!grants.includes("authorization_code")) {
    return fail("invalid_client_metadata", "Invalid grant_types: authorization_code is the only way to a first token");
  }
  const responses = subset(b.response_types, RESPONSE_TYPES, ["code"]);
  if (!responses) return fail("invalid_client_metadata", "Invalid response_types: expected code");
  const scope = optionalString(b.scope, 1000);
  if (scope === false || (scope !== null && !scope.split(" ").filter(Boolean).every(isScope))) {
    return fail("invalid_client_metadata", "Invalid scope: expected space-separated scopes this server supports");
  }
  const name = optionalString(b.client_name, MAX_CLIENT_NAME_LENGTH);
  if (name === false) return fail("invalid_client_metadata", `Invalid client_name: expected at most ${MAX_CLIENT_NAME_LENGTH} characters`);
  const clientUri = optionalWebUri(b.client_uri);
  if (clientUri === false) return fail("invalid_client_metadata", "Invalid client_uri: expected an https URL");
  const logoUri = optionalWebUri(b.logo_uri);
  if (logoUri === false) return fail("invalid_client_metadata", "Invalid logo_uri: expected an https URL");
  return ok({
    redirect_uris: [...new Set(uris as string[])],
    client_name: name,
    client_uri: clientUri,
    logo_uri: logoUri,
    token_endpoint_auth_method: method as ClientAuthMethod,
    grant_types: grants,
    response_types: responses,
    scope,
  });
}

/** Distinct members of `allowed`, `fallback` when absent; null when not such a list. */
function subset<T extends string>(value: unknown, allowed: readonly T[], fallback: T[]): T[] | null {
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => (allowed as readonly unknown[]).includes(v))) return null;
  return allowed.filter((a) => value.includes(a));
}

/** A string of 1..max characters, null when absent; false when malformed. */
function optionalString(value: unknown, max: number): string | null | false {
  if (value === undefined || value === null) return null;
  return typeof value === "string" && value.length >= 1 && value.length <= max ? value : false;
}

/** An https URL (what a consent page may link to or load), null when absent; false when not one. */
function optionalWebUri(value: unknown): string | null | false {
  const s = optionalString(value, MAX_CLIENT_URI_LENGTH);
  if (s === null || s === false) return s;
  try {
    return new URL(s).protocol === "https:" ? s : false;
  } catch {
    return false;
  }
}
