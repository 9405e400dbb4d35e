import { fail, ok, type Result } from "./errors.ts";

/** How a client presented itself at the token or revocation endpoint. */
export interface ClientCredentials {
  client_id: string;
  /** `basic`: HTTP Basic; `post`: in the form body; `none`: only `client_id`. */
  method: "basic" | "post" | "none";
  client_secret?: string | null;
}

const BASIC = /^basic\s+/i;
const malformedBasic = () => fail<ClientCredentials>("invalid_client", "Client authentication failed: malformed Basic credentials");

/**
 * How the client authenticated (RFC 6749 §2.3.1), read from the `Authorization` header and the
 * form's parameters: HTTP Basic, whose id and secret are form-encoded before base64; the body's
 * `client_id` and `client_secret`; or the id alone (a public client). Two methods at once, or a
 * `client_id` beside Basic credentials naming another, is `invalid_request`; Basic that does not
 * decode, or no `client_id` at all, `invalid_client`. Whether the client is who it says is
 * authenticateClient's to decide.
 */
export function readClientCredentials(authorization: string | null, form: ReadonlyMap<string, string>): Result<ClientCredentials> {
  const basic = authorization && BASIC.test(authorization) ? authorization.replace(BASIC, "").trim() : null;
  if (basic !== null) {
    if (form.has("client_secret")) return fail("invalid_request", "Invalid request: two client authentication methods");
    let decoded: string;
    try {
      decoded = atob(basic);
    } catch {
      return malformedBasic();
    }
    const i = decoded.indexOf(":");
    if (i < 0) return malformedBasic();
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    try {
      const id = decode(decoded.slice(0, i));
      if (form.has("client_id") && form.get("client_id") !== id) {
        return fail("invalid_request", "Invalid request: client_id differs from the Basic credentials'");
      }
      return ok({ client_id: id, method: "basic", client_secret: decode(decoded.slice(i + 1)) });
    } catch {
      return malformedBasic();
    }
  }
  const id = form.get("client_id");
  if (!id) return fail("invalid_client", "Client authentication failed: no client_id");
  const secret = form.get("client_secret");
  return ok(secret !== undefined ? { client_id: id, method: "post", client_secret: secret } : { client_id: id, method: "none" });
}
