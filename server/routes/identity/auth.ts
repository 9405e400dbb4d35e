import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { createSession, invalidateSession, type OidcSignInState, resolveOidcIdentity, sessionIdOf } from "../../../core/identity/mod.ts";
import { forbidden, notFound, validationFailed } from "../../../core/kernel/mod.ts";
import { API_PREFIX } from "../../http/api-prefix.ts";
import type { ServerDeps } from "../../deps.ts";
import { cookieValue } from "../../http/csrf.ts";
import { safeReturnTo } from "../../http/return-to.ts";
import { errors, publicOperation } from "../../http/schemas.ts";
import { appendSetCookie, clearedSessionCookie, isSameOrigin, originOf, sessionCookie, sessionTokenOf } from "../../http/session-cookie.ts";
import { signedValues } from "../../http/signed-value.ts";

/**
 * The dashboard's OpenID Connect sign-in (docs/decisions/030-sessions-oidc-identity-webhook.md):
 * `GET /auth/login` starts the authorization code flow (PKCE, state, nonce; kept in a signed
 * ten-minute cookie), `GET /auth/callback` finishes it (the provider adapter checks the ID token),
 * links the person (issuer + subject, the first time by verified e-mail) and sets the session
 * cookie, `POST /auth/logout` ends the session. Off (404) without OIDC_* settings.
 */
const wantsJson = (request: Request) => {
  const accept = request.headers.get("accept") ?? "";
  return /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
};

export const SIGN_IN_COOKIE = "wks_oidc";
const SIGN_IN_TTL_MS = 10 * 60_000;
const tags = ["auth"];

interface SignInCookie extends OidcSignInState {
  return_to: string;
}

const secure = (origin: string) => (origin.startsWith("https:") ? "; Secure" : "");

/**
 * A 303 to `location` for a browser; with `Accept: application/json` (a script or an app driving
 * the flow itself) a 200 naming it instead. The cookies are set either way.
 */
function found(request: Request, location: string, field: "authorization_url" | "return_to", cookies: string[]): Response {
  const headers = new Headers({ "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const c of cookies) headers.append("set-cookie", c);
  if (wantsJson(request)) {
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify({ [field]: location }), { status: 200, headers });
  }
  headers.set("location", location);
  return new Response(null, { status: 303, headers });
}

export function authRoutes(deps: ServerDeps) {
  const signed = signedValues(deps.config.secretKey, "oidc-sign-in");
  const provider = () => {
    if (!deps.oidc) throw notFound("Sign-in is not configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET): sign-in");
    return deps.oidc;
  };
  const callbackOf = (origin: string) => `${origin}${API_PREFIX}/auth/callback`;

  return new Elysia({ name: "auth" })
    .get(
      "/auth/login",
      async ({ request, query }) => {
        const oidc = provider();
        const origin = originOf(deps, request);
        const returnTo = safeReturnTo(query.return_to, [origin, new URL(request.url).origin]) ?? "/";
        const { url, keep } = await oidc.start(callbackOf(origin));
        const cookie = signed.seal({ ...keep, return_to: returnTo }, SIGN_IN_TTL_MS, deps.core.clock.now().getTime());
        return found(request, url, "authorization_url", [
          `${SIGN_IN_COOKIE}=${cookie}; Path=${API_PREFIX}/auth; HttpOnly; SameSite=Lax; Max-Age=${SIGN_IN_TTL_MS / 1000}${secure(origin)}`,
        ]);
      },
      {
        query: Type.Object({
          return_to: Type.Optional(Type.String({
            maxLength: 2000,
            description: "Where to go once signed in: a path of this service (or a URL of its origin); anything else is replaced by `/`.",
          })),
        }),
        response: {
          200: Type.Object({ authorization_url: Type.String({ description: "The provider's authorization URL to send the browser to." }) }),
          ...errors(400, 404, 502),
        },
        detail: {
          ...publicOperation,
          tags,
          summary: "Sign in with the identity provider (OpenID Connect)",
          description:
            "Redirects (303) to the provider's authorization endpoint: the authorization code flow with PKCE (S256), `state` and `nonce`, kept for ten minutes in a signed `HttpOnly` cookie (`wks_oidc`). `return_to` must be of this service's origin, else the sign-in ends at `/`. With `Accept: application/json`: 200 `{authorization_url}` instead of the redirect (the cookie is set alike), for a dashboard that navigates itself. Not configured (no OIDC_* settings): 404. The provider unreachable: 502 `IDENTITY_PROVIDER_UNAVAILABLE`.",
          responses: { 303: { description: "To the identity provider." } },
        },
      },
    )
    .get(
      "/auth/callback",
      async ({ request }) => {
        const oidc = provider();
        const origin = originOf(deps, request);
        const now = deps.core.clock.now();
        const kept = signed.open<SignInCookie>(cookieValue(request.headers.get("cookie"), SIGN_IN_COOKIE), now.getTime());
        if (!kept) throw validationFailed("Sign-in failed: it expired or did not start in this browser; sign in again");
        const claims = await oidc.finish(new URL(request.url), callbackOf(origin), kept);
        if (!claims.ok) throw validationFailed(claims.error.description);
        const person = await resolveOidcIdentity(deps.core, claims.value);
        if (!person.ok) throw forbidden(person.error.description);
        const { token, session } = await createSession(deps.core, person.value.identity_id);
        const returnTo = safeReturnTo(kept.return_to, [origin, new URL(request.url).origin]) ?? "/";
        return found(request, returnTo, "return_to", [
          sessionCookie(token, session.expires_at, origin),
          `${SIGN_IN_COOKIE}=; Path=${API_PREFIX}/auth; HttpOnly; SameSite=Lax; Max-Age=0${secure(origin)}`,
        ]);
      },
      {
        query: Type.Object({
          code: Type.Optional(Type.String()),
          state: Type.Optional(Type.String()),
          iss: Type.Optional(Type.String()),
          error: Type.Optional(Type.String()),
          error_description: Type.Optional(Type.String()),
        }, { additionalProperties: true }),
        response: {
          200: Type.Object({ return_to: Type.String({ description: "Where the sign-in ends (a path of this service)." }) }),
          ...errors(400, 403, 404, 502),
        },
        detail: {
          ...publicOperation,
          tags,
          summary: "The identity provider's redirect back (OpenID Connect callback)",
          description:
            "Checks `state` against the sign-in cookie, exchanges the code (with the PKCE verifier and the client secret), and checks the ID token: signature against the provider's JWKS, `iss`, `aud`, `exp`, `nonce`. The person is the one linked to the provider's issuer and subject; the first time, the existing person with the provider's *verified* e-mail, who is linked then. Sign-in creates no people: an unknown e-mail (ask a workspace owner to add you first), an unverified one or a deactivated account is 403. Then the session cookie `wks_session` is set (`HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` on https, 30 days) and the browser is sent (303) to the sign-in's `return_to` (with `Accept: application/json`: 200 `{return_to}`). A failed check: 400, no session.",
          responses: { 303: { description: "Signed in: to `return_to` (or `/`), with the session cookie." } },
        },
      },
    )
    .post(
      "/auth/logout",
      async ({ request, set }) => {
        if (!isSameOrigin(deps, request)) {
          throw forbidden("Cannot sign out: the request must come from this service's own pages (Origin)");
        }
        const token = sessionTokenOf(request);
        if (token) await invalidateSession(deps.core, sessionIdOf(token));
        appendSetCookie(set, clearedSessionCookie(originOf(deps, request)));
        set.status = 201;
        return { signed_out: true as const };
      },
      {
        response: { 201: Type.Object({ signed_out: Type.Literal(true) }), ...errors(403) },
        detail: {
          ...publicOperation,
          tags,
          summary: "Sign out",
          description:
            "Ends the dashboard session of the `wks_session` cookie (if any) and clears the cookie. Needs an `Origin` of this service (else 403): another site cannot sign you out. Signing out of the identity provider is the provider's business.",
        },
      },
    );
}
