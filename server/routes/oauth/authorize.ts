import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import {
  type AuthorizationParams,
  authorizationResponseUri,
  checkAuthorizationRequest,
  consentViewer,
} from "../../../core/identity/mod.ts";
import { API_PREFIX } from "../../http/api-prefix.ts";
import { consentHeaders, renderAuthorizationError, renderConsentPage, type SignedIn } from "../../http/consent-page.ts";
import { CSRF_COOKIE } from "../../http/csrf.ts";
import { ErrorEnvelope } from "../../http/error-envelope.ts";
import { isJson } from "../../http/json-body.ts";
import { rawBody } from "../../http/raw-body.ts";
import { authenticated, publicOperation } from "../../http/schemas.ts";
import { appendSetCookie, type HeaderSink, sessionOf } from "../../http/session-cookie.ts";
import { redirect, withCookies } from "./answers.ts";
import { AuthorizeDecision, decideForm, decideJson } from "./decision.ts";
import { type MountPrefix, mountShape, type OAuthContext } from "./mounts.ts";

const RedirectTo = Type.Object({
  redirect_to: Type.String({
    description: "Where to send the user: the redirect URI with `code` (or `error=access_denied`), `state` and `iss`.",
  }),
});

const envelope = (description: string) => ({ description, content: { "application/json": { schema: ErrorEnvelope } } });
/** An answer that is a page for a browser's form post, the API's envelope otherwise. */
const htmlOrEnvelope = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorEnvelope }, "text/html": { schema: { type: "string" as const } } },
});

/** The authorization endpoint at one mount: the consent page (GET) and the decision (POST, decision.ts). */
export function authorizeRoutes(ctx: OAuthContext, prefix: MountPrefix) {
  return new Elysia({ name: `oauth-authorize${prefix}` }).use(consentPageRoute(ctx, prefix)).use(decisionRoute(ctx, prefix));
}

/** The consent page: the request checked, then the page (or the way back to the client with an error). */
function consentPageRoute(ctx: OAuthContext, prefix: MountPrefix) {
  const { deps, csrf } = ctx;
  const { params, at, slugOf } = mountShape(prefix);
  return new Elysia({ name: `oauth-consent-page${prefix}` })
    .get(
      `${prefix}/oauth/authorize`,
      async ({ request, query, params: p, set }) => {
        const mount = await ctx.mountOf(request, slugOf(p)).catch(() => null);
        const html = (status: number, body: string, redirectUri: string | null) => {
          set.status = status;
          Object.assign(set.headers, consentHeaders(redirectUri));
          return new Response(body, { status, headers: consentHeaders(redirectUri) });
        };
        if (!mount) return html(404, renderAuthorizationError("The workspace is unknown"), null);
        const check = await checkAuthorizationRequest(deps.core, query as AuthorizationParams, mount.origin);
        if (!check.ok) {
          const r = check.refusal;
          if (r.kind === "fatal") return html(400, renderAuthorizationError(r.description), null);
          return redirect(
            authorizationResponseUri(r.redirect_uri, { error: r.error, error_description: r.description }, r.state, mount.issuer),
          );
        }
        const cookies: HeaderSink = { headers: {} };
        let signedIn: SignedIn | undefined;
        let binding = "";
        if (deps.oidc) {
          // With an identity provider the page decides as the signed-in person: a signed-out
          // user signs in first and comes back here.
          const session = await sessionOf(deps, request, cookies);
          if (!session) {
            const here = new URL(request.url);
            const login = `${mount.origin}${API_PREFIX}/auth/login?return_to=${encodeURIComponent(`${here.pathname}${here.search}`)}`;
            return withCookies(redirect(login), cookies);
          }
          const who = await consentViewer(deps.core, mount, session);
          if (!who) return withCookies(html(404, renderAuthorizationError("You are no member of this workspace"), null), cookies);
          signedIn = who;
          binding = session.id;
        }
        // Signed in, the token is bound to the session: it decides for that session only.
        const token = csrf.issue(binding);
        const headers = consentHeaders(check.request.redirect_uri);
        const secure = mount.origin.startsWith("https:") ? "; Secure" : "";
        const cookie = `${CSRF_COOKIE}=${token}; Path=${API_PREFIX}; HttpOnly; SameSite=Strict; Max-Age=3600${secure}`;
        const page = renderConsentPage({
          request: check.request,
          workspace: mount.slug,
          action: `${mount.base}/oauth/authorize`,
          csrf: token,
          signedIn,
        });
        Object.assign(set.headers, headers);
        appendSetCookie(cookies, cookie);
        return withCookies(new Response(page, { status: 200, headers }), cookies);
      },
      {
        ...(params ? { params } : {}),
        query: Type.Object({
          client_id: Type.Optional(Type.String()),
          redirect_uri: Type.Optional(Type.String()),
          response_type: Type.Optional(Type.String()),
          scope: Type.Optional(Type.String()),
          state: Type.Optional(Type.String()),
          code_challenge: Type.Optional(Type.String()),
          code_challenge_method: Type.Optional(Type.String()),
          resource: Type.Optional(Type.String()),
        }, { additionalProperties: true }),
        detail: {
          ...publicOperation,
          tags: ["oauth"],
          summary: `The consent page (authorization endpoint), at ${at}`,
          description:
            "Script-free HTML. Unknown client or unregistered `redirect_uri`: 400 HTML, never a redirect. Other errors redirect to the client with `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207): `response_type` not `code` → `unsupported_response_type`; no `code_challenge` or a method other than `S256` → `invalid_request`; an unknown scope → `invalid_scope`; a `resource` outside this service → `invalid_target`. With no identity provider configured, the page asks for one of the user's API keys and decides as that person, in the key's workspace (at a workspace mount, it must be that workspace's key). Headers: `Content-Security-Policy` (`default-src 'none'`, a `form-action` allowing the redirect, `frame-ancestors 'none'`), `X-Frame-Options: DENY`, `Cache-Control: no-store`, `Referrer-Policy: no-referrer`; a signed double-submit CSRF cookie guards the form.",
          responses: {
            200: { description: "The consent page.", content: { "text/html": { schema: { type: "string" } } } },
            303: { description: "Back to the client with an error." },
            400: htmlOrEnvelope(
              "An untrustworthy request (unknown client or redirect URI): HTML; a malformed query or slug: the error envelope.",
            ),
            404: { description: "Unknown workspace.", content: { "text/html": { schema: { type: "string" } } } },
          },
        },
      },
    );
}

/** The decision: as JSON (201 `{redirect_to}`), or the consent page's form post (a 303, or the page again). */
function decisionRoute(ctx: OAuthContext, prefix: MountPrefix) {
  const { params, at, slugOf } = mountShape(prefix);
  return new Elysia({ name: `oauth-decision${prefix}` })
    .use(rawBody)
    .post(
      `${prefix}/oauth/authorize`,
      async ({ request, body, params: p, set }) => {
        const mount = await ctx.mountOf(request, slugOf(p));
        if (isJson(request.headers.get("content-type"))) {
          set.status = 201;
          return { redirect_to: await decideJson(ctx, mount, request, body as Uint8Array, set) };
        }
        return decideForm(ctx, mount, request, body as Uint8Array);
      },
      {
        rawBody: true,
        ...(params ? { params } : {}),
        // No `response` schemas: the plugin would replace the responses below with them, and the
        // form post's answers (303, HTML pages) cannot be said there.
        detail: {
          ...authenticated,
          tags: ["oauth"],
          summary: `Decide an authorization request, at ${at}`,
          responses: {
            201: { description: "The JSON decision: where to send the user.", content: { "application/json": { schema: RedirectTo } } },
            303: {
              description: "The consent form's post: to the redirect URI with `code` (or `error`), `state` and `iss`.",
              headers: { location: { schema: { type: "string" } } },
            },
            400: htmlOrEnvelope(
              "Invalid parameters (JSON: the envelope, nothing issued); the form: an expired CSRF token or an untrustworthy request, as a page.",
            ),
            401: htmlOrEnvelope("No or a bad API key, no or an ended session (the form: the page again, asking for a valid key)."),
            403: htmlOrEnvelope(
              "The decider may not decide: a faceless key, or an OAuth token; by session, another `Origin` or no matching CSRF token.",
            ),
            404: htmlOrEnvelope(
              "Unknown workspace, at a workspace mount another workspace's key, or a workspace the signed-in person is no member of.",
            ),
            413: envelope("The body is past the limit."),
            429: envelope("Rate limited."),
          },
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: AuthorizeDecision },
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  description: "The consent page's own form: the same fields, `csrf_token`, and the decider's `api_key`.",
                },
              },
            },
          },
          description:
            "JSON, by the decider's API key (`x-api-key` or `Authorization: Bearer`; a person's key: a faceless key is 403; at a workspace mount, another workspace's key is 404), or by the dashboard session (cookie `wks_session`, with this service's `Origin` and the consent page's `csrf_token` and its cookie, else 403; the signed-in person decides in the mount's workspace, at the root mount in the `workspace` named; not theirs: 404): 201 `{redirect_to}`. Invalid parameters: 400 `VALIDATION_FAILED`, nothing issued. The consent page's form post (form-encoded, with its CSRF token and the key in `api_key`) gets a 303 to the same URL instead, as browsers do not follow a 201. `deny` sends `error=access_denied`. A code lives 60 s and redeems only at this mount's issuer.",
        },
      },
    );
}
