import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { authenticateApiKey, type Authenticated } from "../../../core/access/mod.ts";
import {
  type AuthorizationParams,
  type AuthorizationRequest,
  authorizationResponseUri,
  checkAuthorizationRequest,
  consentDecider,
  consentViewer,
  decideConsent,
  type OAuthMount,
  type Session,
} from "../../../core/identity/mod.ts";
import { AppError, forbidden, schemaErrorDetails, unauthenticated, validationFailed } from "../../../core/kernel/mod.ts";
import { API_PREFIX } from "../../http/api-prefix.ts";
import { optionalPrincipal } from "../../http/authenticate.ts";
import { consentHeaders, renderAuthorizationError, renderConsentPage } from "../../http/consent-page.ts";
import { cookieValue, CSRF_COOKIE, CSRF_FIELD } from "../../http/csrf.ts";
import { identityValue } from "../../http/error-status.ts";
import { strict } from "../../http/schemas.ts";
import { consentFormSessionOf, type HeaderSink, sessionOf } from "../../http/session-cookie.ts";
import { redirect, withCookies } from "./answers.ts";
import type { OAuthContext } from "./mounts.ts";

/** The decision on an authorization request (`POST /oauth/authorize`): as JSON, or the consent page's form. */

export const AuthorizeDecision = Type.Object({
  client_id: Type.String({ maxLength: 200 }),
  redirect_uri: Type.String({ maxLength: 2000 }),
  response_type: Type.String({ maxLength: 50 }),
  scope: Type.Optional(Type.String({ maxLength: 500 })),
  state: Type.Optional(Type.String({ maxLength: 2000 })),
  code_challenge: Type.String({ maxLength: 200 }),
  code_challenge_method: Type.String({ maxLength: 20 }),
  resource: Type.Optional(Type.String({ maxLength: 2000 })),
  workspace: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        "The workspace's slug. By API key: the key's, if given. By session at the root mount: required, one of the person's workspaces (else 404).",
    }),
  ),
  decision: Type.Union([Type.Literal("approve"), Type.Literal("deny")]),
  csrf_token: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        "By session: the consent page's CSRF token (its form's `csrf_token`), sent with the page's `oauth_csrf` cookie; missing or not matching, 403. Not read with an API key.",
    }),
  ),
}, strict);
type AuthorizeDecision = Static<typeof AuthorizeDecision>;

/**
 * The JSON decision: by a header credential (an API key), else by the dashboard session (ADR 044),
 * like the consent form: this service's `Origin` (sessionOf) and the consent page's CSRF token with
 * its cookie. The rest is core's decideConsent. Answers where to send the user.
 */
export async function decideJson(ctx: OAuthContext, mount: OAuthMount, request: Request, raw: Uint8Array, set: HeaderSink) {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw validationFailed("Invalid request body: not JSON");
  }
  if (!Value.Check(AuthorizeDecision, body)) {
    throw validationFailed(
      "Invalid request body",
      schemaErrorDetails(Value.Errors(AuthorizeDecision, body), { prefix: "body", limit: 10 }),
    );
  }
  const auth = await optionalPrincipal(ctx.deps, request.headers);
  const decider = auth ? { auth } : { session: await sessionDecider(ctx, request, body, set) };
  return identityValue(
    await decideConsent(ctx.deps.core, { mount, decider, workspace: body.workspace, params: body, decision: body.decision }),
  );
}

/** The signed-in decider's session, its CSRF token checked. */
async function sessionDecider(ctx: OAuthContext, request: Request, body: AuthorizeDecision, set: HeaderSink) {
  const session = await sessionOf(ctx.deps, request, set);
  if (!session) {
    throw unauthenticated("Missing credentials: decide with a person's API key (x-api-key or Authorization: Bearer), or sign in");
  }
  if (!ctx.csrf.verify(cookieValue(request.headers.get("cookie"), CSRF_COOKIE), body.csrf_token ?? null, session.id)) {
    throw forbidden("Cannot decide by session: send the consent page's csrf_token, with its cookie");
  }
  return session;
}

/** The consent page's form post: refusals are pages (or redirects to the client), the decision a 303. */
export async function decideForm(ctx: OAuthContext, mount: OAuthMount, request: Request, raw: Uint8Array): Promise<Response> {
  const { deps, csrf } = ctx;
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) {
    throw validationFailed("Invalid request: send JSON, or the consent page's form");
  }
  const form = new URLSearchParams(new TextDecoder().decode(raw));
  const get = (k: string) => form.get(k);
  const params: AuthorizationParams = {
    client_id: get("client_id"),
    redirect_uri: get("redirect_uri"),
    response_type: get("response_type"),
    scope: get("scope"),
    state: get("state"),
    code_challenge: get("code_challenge"),
    code_challenge_method: get("code_challenge_method"),
    resource: get("resource"),
  };
  const check = await checkAuthorizationRequest(deps.core, params, mount.origin);
  const html = (status: number, page: string, redirectUri: string | null) =>
    new Response(page, { status, headers: consentHeaders(redirectUri) });
  if (!check.ok) {
    const r = check.refusal;
    if (r.kind === "fatal") return html(400, renderAuthorizationError(r.description), null);
    return redirect(authorizationResponseUri(r.redirect_uri, { error: r.error, error_description: r.description }, r.state, mount.issuer));
  }
  // With an identity provider the signed-in person decides, and the page's token is bound to
  // their session: read it first (the form's `Origin: null` let through, see consentFormSessionOf).
  const cookies: HeaderSink = { headers: {} };
  const session = deps.oidc ? await consentFormSessionOf(deps, request, cookies) : null;
  if (deps.oidc && !session) {
    return withCookies(
      html(401, renderAuthorizationError("Your session ended: go back, reload the page and sign in again"), null),
      cookies,
    );
  }
  if (!csrf.verify(cookieValue(request.headers.get("cookie"), CSRF_COOKIE), get(CSRF_FIELD), session?.id)) {
    return withCookies(
      html(400, renderAuthorizationError("The form expired or did not come from this page: go back and reload it"), null),
      cookies,
    );
  }
  const again = (status: number, error: string) => consentPageAgain(ctx, mount, check.request, session, cookies, status, error);
  const decided = async (auth: Authenticated | null, decision: "approve" | "deny") =>
    redirect(identityValue(await decideConsent(deps.core, { mount, decider: auth && { auth }, params, decision })));
  const decision = get("decision");
  if (decision === "deny") return withCookies(await decided(null, "deny"), cookies);
  if (decision !== "approve") return again(400, "Choose Allow or Deny");
  if (session) {
    // Signed in: the session's person decides, in the mount's workspace or the one chosen.
    const decider = await consentDecider(deps.core, mount, { session }, mount.slug ?? get("workspace"));
    if (!decider.ok) return again(404, "Choose one of your workspaces");
    return withCookies(await decided(decider.value, "approve"), cookies);
  }
  const key = get("api_key")?.trim();
  if (!key) return again(401, "Enter one of your API keys to allow access");
  let auth: Authenticated;
  try {
    auth = await authenticateApiKey(deps.core, key);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.code === "UNAUTHENTICATED") return again(401, "That API key is not valid");
    if (e.code === "NOT_FOUND") return again(404, `That API key belongs to another workspace than ${mount.slug}`);
    return again(403, "That key acts for no person: use one of your personal API keys");
  }
  const decider = await consentDecider(deps.core, mount, { auth }, null);
  if (!decider.ok && decider.error.code === "not_found") return again(404, `That API key belongs to another workspace than ${mount.slug}`);
  if (!decider.ok) return again(403, "That key acts for no person: use one of your personal API keys");
  return decided(decider.value, "approve");
}

/** The consent page again, with a fresh CSRF token and why the post did not decide. */
async function consentPageAgain(
  ctx: OAuthContext,
  mount: OAuthMount,
  req: AuthorizationRequest,
  session: Session | null,
  cookies: HeaderSink,
  status: number,
  error: string,
): Promise<Response> {
  const token = ctx.csrf.issue(session?.id);
  const secure = mount.origin.startsWith("https:") ? "; Secure" : "";
  const signedIn = session ? (await consentViewer(ctx.deps.core, mount, session)) ?? undefined : undefined;
  const page = renderConsentPage({
    request: req,
    workspace: mount.slug,
    action: `${mount.base}/oauth/authorize`,
    csrf: token,
    error,
    signedIn,
  });
  const headers = {
    ...consentHeaders(req.redirect_uri),
    "set-cookie": `${CSRF_COOKIE}=${token}; Path=${API_PREFIX}; HttpOnly; SameSite=Strict; Max-Age=3600${secure}`,
  };
  return withCookies(new Response(page, { status, headers }), cookies);
}
