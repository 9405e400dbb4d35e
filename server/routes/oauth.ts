import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Elysia } from "elysia";
import { authenticateApiKey, type Authenticated } from "../../core/access/authenticate.ts";
import { SCOPES } from "../../core/access/scopes.ts";
import {
  approveAuthorization,
  authenticateClient,
  type AuthorizationParams,
  type AuthorizationRequest,
  authorizationResponseUri,
  checkAuthorizationRequest,
  type ClientCredentials,
  ClientInfo,
  clientInformation,
  GrantView,
  listGrants,
  redeemCode,
  refreshTokens,
  registerClient,
  RegisteredClient,
  type Result,
  revokeGrant,
  revokeToken,
  type Session,
  sessionPrincipal,
  TokenSet,
} from "../../core/identity/mod.ts";
import { AppError, forbidden, notFound, unauthenticated, validationFailed } from "../../core/kernel/errors.ts";
import { schemaErrorDetails } from "../../core/kernel/schema-errors.ts";
import { IdSchema, SlugSchema } from "../../core/workspaces/dto.ts";
import { API_PREFIX } from "../app.ts";
import type { ServerDeps } from "../deps.ts";
import { optionalPrincipal } from "../http/authenticate.ts";
import { consentHeaders, renderAuthorizationError, renderConsentPage, type SignedIn } from "../http/consent-page.ts";
import { appendSetCookie, consentFormSessionOf, type HeaderSink, sessionOf } from "../http/session-cookie.ts";
import { cookieValue, CSRF_COOKIE, CSRF_FIELD, csrfGuard } from "../http/csrf.ts";
import { isJson } from "../http/json-body.ts";
import { publicOrigin } from "../http/public-origin.ts";
import { clientAddress, enforceRateLimit } from "../http/rate-limit.ts";
import { rawBody } from "../http/raw-body.ts";
import { ErrorEnvelope } from "../http/error-envelope.ts";
import { identityValue } from "../http/error-status.ts";
import { authenticated, errors, publicOperation, strict } from "../http/schemas.ts";
import { openCors } from "./protected-resource.ts";
import { workspaceScope } from "./workspace-scope.ts";

/**
 * The OAuth 2.1 authorization server (docs/decisions/029-oauth-server.md): registration (RFC 7591),
 * client information, the consent page and its decision, the token and revocation endpoints
 * (RFC 6749, RFC 7009), the metadata (RFC 8414), and a workspace's grants. Two mounts, each its own
 * issuer: the root (`{PUBLIC_URL}`), and `/workspaces/{slug}` (`{PUBLIC_URL}/api/v1/workspaces/{slug}`),
 * pinned to that workspace. One client registry serves both.
 */

const tags = ["oauth"];
const METADATA_PATH = "/.well-known/oauth-authorization-server";

const OAuthError = Type.Object(
  {
    error: Type.String({ description: "An RFC 6749 §5.2 / RFC 7591 §3.2.2 error code." }),
    error_description: Type.Optional(Type.String()),
  },
  { description: "An OAuth error (RFC 6749 §5.2), not the API's envelope: OAuth clients read this shape." },
);

const AuthorizationServerMetadata = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  registration_endpoint: Type.String(),
  revocation_endpoint: Type.String(),
  scopes_supported: Type.Array(Type.String()),
  response_types_supported: Type.Array(Type.Literal("code")),
  response_modes_supported: Type.Array(Type.Literal("query")),
  grant_types_supported: Type.Array(Type.String()),
  code_challenge_methods_supported: Type.Array(Type.Literal("S256")),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
  authorization_response_iss_parameter_supported: Type.Literal(true),
  service_documentation: Type.String(),
}, { description: "OAuth 2.0 Authorization Server Metadata (RFC 8414)." });

const AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"];
/** The token and revocation endpoints' parameters (RFC 6749 §4.1.3, §6; RFC 7009 §2.1; RFC 8707): others are ignored. */
const FORM_PARAMETERS = new Set([
  "grant_type",
  "code",
  "code_verifier",
  "redirect_uri",
  "refresh_token",
  "scope",
  "client_id",
  "client_secret",
  "token",
  "token_type_hint",
  "resource",
]);

/** A mount: the root or one workspace. */
interface Mount {
  issuer: string;
  /** The endpoints' base: `{origin}/api/v1` or the workspace mount's. */
  base: string;
  /** The pinned workspace's slug, at a workspace mount. */
  slug: string | null;
  origin: string;
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The response with the cookies a session read set (its extension, or the clearing of a stale one). */
function withCookies(response: Response, sink: HeaderSink): Response {
  const c = sink.headers["set-cookie"];
  for (const v of c === undefined ? [] : Array.isArray(c) ? c : [c]) response.headers.append("set-cookie", String(v));
  return response;
}

export function oauthRoutes(deps: ServerDeps) {
  const core = deps.core;
  const csrf = csrfGuard(deps.config.secretKey);
  const originOf = (request: Request) => publicOrigin(request, deps.config.publicUrl, deps.rateLimits.trustProxy);

  /** The mount a request reached; an unknown workspace is a 404. */
  async function mountOf(request: Request, slug: string | undefined): Promise<Mount> {
    const origin = originOf(request);
    if (slug === undefined) return { issuer: origin, base: `${origin}${API_PREFIX}`, slug: null, origin };
    const ws = await core.stores.workspaces.getBySlug(slug);
    if (!ws) throw notFound("Workspace");
    const issuer = `${origin}${API_PREFIX}/workspaces/${slug}`;
    return { issuer, base: issuer, slug, origin };
  }

  const metadataOf = (m: Mount) => ({
    issuer: m.issuer,
    authorization_endpoint: `${m.base}/oauth/authorize`,
    token_endpoint: `${m.base}/oauth/token`,
    registration_endpoint: `${m.base}/oauth/register`,
    revocation_endpoint: `${m.base}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code" as const],
    response_modes_supported: ["query" as const],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256" as const],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    authorization_response_iss_parameter_supported: true as const,
    service_documentation: `${m.origin}${API_PREFIX}/docs`,
  });

  /** An RFC 6749 §5.2 error answer, readable from any origin. */
  const oauthError = (e: { code: string; description: string }, opts: { basic?: boolean } = {}) => {
    const status = e.code === "invalid_client" ? 401 : 400;
    const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };
    if (status === 401 && opts.basic) headers["www-authenticate"] = 'Basic realm="oauth", charset="UTF-8"';
    return new Response(JSON.stringify({ error: e.code, error_description: e.description }), { status, headers });
  };

  /**
   * Form parameters (RFC 6749 §3.2: form-encoded, no parameter twice); an error when malformed.
   * Only the parameters these endpoints read: unrecognized ones are ignored (§3.1, §3.2), repeated
   * or not.
   */
  const formOf = (request: Request, body: unknown): Map<string, string> | { code: string; description: string } => {
    if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) {
      return { code: "invalid_request", description: "Invalid request: the body must be application/x-www-form-urlencoded" };
    }
    const params = new URLSearchParams(new TextDecoder().decode(body as Uint8Array));
    const out = new Map<string, string>();
    for (const [k, v] of params) {
      if (!FORM_PARAMETERS.has(k)) continue;
      if (out.has(k)) return { code: "invalid_request", description: `Invalid request: parameter ${k} is repeated` };
      out.set(k, v);
    }
    return out;
  };

  /** How the client authenticated: HTTP Basic (RFC 6749 §2.3.1, form-encoded parts), the body, or its id alone. */
  const clientCredentialsOf = (request: Request, form: Map<string, string>): ClientCredentials | { code: string; description: string } => {
    const header = request.headers.get("authorization");
    const basic = header && /^basic\s+/i.test(header) ? header.replace(/^basic\s+/i, "").trim() : null;
    if (basic !== null) {
      if (form.has("client_secret")) return { code: "invalid_request", description: "Invalid request: two client authentication methods" };
      let decoded: string;
      try {
        decoded = atob(basic);
      } catch {
        return { code: "invalid_client", description: "Client authentication failed: malformed Basic credentials" };
      }
      const i = decoded.indexOf(":");
      if (i < 0) return { code: "invalid_client", description: "Client authentication failed: malformed Basic credentials" };
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
      try {
        const id = decode(decoded.slice(0, i));
        if (form.has("client_id") && form.get("client_id") !== id) {
          return { code: "invalid_request", description: "Invalid request: client_id differs from the Basic credentials'" };
        }
        return { client_id: id, method: "basic", client_secret: decode(decoded.slice(i + 1)) };
      } catch {
        return { code: "invalid_client", description: "Client authentication failed: malformed Basic credentials" };
      }
    }
    const id = form.get("client_id");
    if (!id) return { code: "invalid_client", description: "Client authentication failed: no client_id" };
    const secret = form.get("client_secret");
    return secret !== undefined ? { client_id: id, method: "post", client_secret: secret } : { client_id: id, method: "none" };
  };

  /** A per-address (and client) budget, never below the given floor, off when the per-IP limit is off. */
  const limit = async (request: Request, server: unknown, set: { headers: Record<string, unknown> }, what: string, floor: number) => {
    const limits = deps.rateLimits;
    if (!limits.perIp) return;
    const ip = clientAddress(request, server as Parameters<typeof clientAddress>[1], limits.trustProxy);
    const rule = { limit: Math.max(floor, limits.perIp.limit), windowMs: 60_000 };
    await enforceRateLimit(limits, deps.logger, `ip:${ip}:${what}`, rule, set.headers);
  };

  // ---- the two mounts' endpoints ----

  function mountRoutes(prefix: "" | "/workspaces/:slug") {
    const params = prefix === "" ? undefined : Type.Object({ slug: SlugSchema }, strict);
    const at = prefix === "" ? "the root issuer" : "the workspace's own issuer";
    const slugOf = (p: unknown) => (prefix === "" ? undefined : (p as { slug: string }).slug);
    const withParams = <T extends Record<string, TSchema>>(extra: T) =>
      params ? Type.Object({ ...params.properties, ...extra }, strict) : Type.Object(extra, strict);
    /** The RFC routes' 400: the RFC's shape; at a workspace mount a malformed slug is refused, like everywhere, by the envelope. */
    const rfcError400 = params ? Type.Union([OAuthError, ErrorEnvelope]) : OAuthError;

    return new Elysia({ name: `oauth${prefix}` })
      .use(rawBody)
      .post(
        `${prefix}/oauth/register`,
        async ({ request, body, params: p, set, server }) => {
          openCors(set.headers);
          await limit(request, server, set, "oauth-register", 30);
          await mountOf(request, slugOf(p));
          const registered = await registerClient(core, registrationBodyOf(request, body as Uint8Array));
          if (!registered.ok) return oauthError(registered.error);
          set.status = 201;
          return registered.value;
        },
        {
          rawBody: true,
          ...(params ? { params } : {}),
          response: { 201: RegisteredClient, 400: rfcError400, ...errors(404, 413, 429) },
          detail: {
            ...publicOperation,
            tags,
            summary: `Register an OAuth client (RFC 7591), at ${at}`,
            requestBody: { required: true, content: { "application/json": { schema: ClientMetadataBody } } },
            description:
              "Public. A confidential client's `client_secret` is shown in this answer only (stored as its SHA-256); metadata the client did not register is absent from the answer. Errors are RFC 7591's: 400 `{error: invalid_redirect_uri | invalid_client_metadata, error_description}`, a body that is not a JSON object included. Rate-limited per client address (at least 30 a minute). A client registered at either mount can be used at both. Readable from any origin, no cookies.",
          },
        },
      )
      .get(
        `${prefix}/oauth/clients/:clientId`,
        async ({ request, params: p }) => {
          await mountOf(request, slugOf(p));
          return identityValue(await clientInformation(core, (p as { clientId: string }).clientId));
        },
        {
          params: withParams({ clientId: Type.String({ maxLength: 200 }) }),
          response: { 200: ClientInfo, ...errors(400, 404) },
          detail: {
            ...publicOperation,
            tags,
            summary: "A client's public information",
            description: "Name, URIs, logo, redirect URIs, and whether it is public or confidential; never a secret. Unknown: 404.",
          },
        },
      )
      .post(
        `${prefix}/oauth/token`,
        async ({ request, body, params: p, set, server }) => {
          openCors(set.headers);
          const mount = await mountOf(request, slugOf(p));
          const form = formOf(request, body);
          if (!(form instanceof Map)) return oauthError(form);
          const creds = clientCredentialsOf(request, form);
          if ("code" in creds) return oauthError(creds, { basic: /^basic\s/i.test(request.headers.get("authorization") ?? "") });
          await limit(request, server, set, `oauth-token:${creds.client_id}`, 600);
          const client = await authenticateClient(core, creds);
          if (!client.ok) return oauthError(client.error, { basic: creds.method === "basic" });
          const grantType = form.get("grant_type");
          let result: Result<TokenSet>;
          if (!grantType) {
            return oauthError({ code: "invalid_request", description: "Invalid request: grant_type is missing" });
          } else if (grantType !== "authorization_code" && grantType !== "refresh_token") {
            return oauthError({
              code: "unsupported_grant_type",
              description: `Unsupported grant_type ${grantType}: expected one of authorization_code, refresh_token`,
            });
          } else if (!client.value.grant_types.includes(grantType)) {
            return oauthError({ code: "unauthorized_client", description: `The client did not register grant type ${grantType}` });
          } else if (grantType === "authorization_code") {
            const [code, verifier, redirectUri] = [form.get("code"), form.get("code_verifier"), form.get("redirect_uri")];
            if (!code || !verifier || !redirectUri) {
              return oauthError({
                code: "invalid_request",
                description: "Invalid request: code, code_verifier and redirect_uri are required",
              });
            }
            result = await redeemCode(core, {
              client: client.value,
              code,
              code_verifier: verifier,
              redirect_uri: redirectUri,
              issuer: mount.issuer,
            });
          } else {
            const refresh = form.get("refresh_token");
            if (!refresh) return oauthError({ code: "invalid_request", description: "Invalid request: refresh_token is required" });
            result = await refreshTokens(core, {
              client: client.value,
              refresh_token: refresh,
              scope: form.get("scope") ?? null,
              issuer: mount.issuer,
            });
          }
          if (!result.ok) return oauthError(result.error);
          return new Response(JSON.stringify(result.value), {
            status: 200,
            headers: { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" },
          });
        },
        {
          rawBody: true,
          ...(params ? { params } : {}),
          response: { 200: TokenSet, 400: rfcError400, 401: OAuthError, ...errors(404, 413, 429) },
          detail: {
            ...publicOperation,
            tags,
            summary: `Token endpoint (RFC 6749 §3.2), at ${at}`,
            requestBody: {
              required: true,
              content: {
                "application/x-www-form-urlencoded": {
                  schema: {
                    type: "object",
                    required: ["grant_type"],
                    properties: {
                      grant_type: { type: "string", enum: ["authorization_code", "refresh_token"] },
                      code: { type: "string" },
                      code_verifier: { type: "string" },
                      redirect_uri: { type: "string" },
                      refresh_token: { type: "string" },
                      scope: { type: "string" },
                      client_id: { type: "string" },
                      client_secret: { type: "string" },
                    },
                  },
                },
              },
            },
            description:
              "Form-encoded. `authorization_code` (`code`, `code_verifier`, `redirect_uri`) or `refresh_token`; the client authenticates as it registered (`client_secret_basic`, `client_secret_post`, or `client_id` alone for a public client). 200 with `Cache-Control: no-store`; `refresh_token` when the client registered that grant. Errors are RFC 6749 §5.2's: `invalid_client` 401 (with `WWW-Authenticate: Basic` when Basic was used), the others 400. A code is spent by its first redemption attempt and redeems only at the issuer that issued it; presented again it revokes the tokens issued from it. Refresh tokens rotate; a rotated-out one presented again revokes its grant. Readable from any origin, no cookies.",
          },
        },
      )
      .post(
        `${prefix}/oauth/revoke`,
        async ({ request, body, params: p, set, server }) => {
          openCors(set.headers);
          await mountOf(request, slugOf(p));
          const form = formOf(request, body);
          if (!(form instanceof Map)) return oauthError(form);
          const creds = clientCredentialsOf(request, form);
          if ("code" in creds) return oauthError(creds, { basic: /^basic\s/i.test(request.headers.get("authorization") ?? "") });
          await limit(request, server, set, `oauth-revoke:${creds.client_id}`, 600);
          const client = await authenticateClient(core, creds);
          if (!client.ok) return oauthError(client.error, { basic: creds.method === "basic" });
          const token = form.get("token");
          if (!token) return oauthError({ code: "invalid_request", description: "Invalid request: token is required" });
          await revokeToken(core, client.value, token);
          return {};
        },
        {
          rawBody: true,
          ...(params ? { params } : {}),
          response: { 200: Type.Object({}), 400: rfcError400, 401: OAuthError, ...errors(404, 413, 429) },
          detail: {
            ...publicOperation,
            tags,
            summary: `Revoke a token (RFC 7009), at ${at}`,
            requestBody: {
              required: true,
              content: {
                "application/x-www-form-urlencoded": {
                  schema: {
                    type: "object",
                    required: ["token"],
                    properties: {
                      token: { type: "string" },
                      token_type_hint: { type: "string" },
                      client_id: { type: "string" },
                      client_secret: { type: "string" },
                    },
                  },
                },
              },
            },
            description:
              "Form-encoded, by the client the token was issued to. 200 even for an unknown token, or another client's (nothing changes then). An access token ends; a refresh token ends its whole grant; at once, on every instance. Readable from any origin, no cookies.",
          },
        },
      )
      .get(
        `${prefix}/oauth/authorize`,
        async ({ request, query, params: p, set }) => {
          const mount = await mountOf(request, slugOf(p)).catch(() => null);
          const html = (status: number, body: string, redirectUri: string | null) => {
            set.status = status;
            Object.assign(set.headers, consentHeaders(redirectUri));
            return new Response(body, { status, headers: consentHeaders(redirectUri) });
          };
          if (!mount) return html(404, renderAuthorizationError("The workspace is unknown"), null);
          const check = await checkAuthorizationRequest(core, query as AuthorizationParams, mount.origin);
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
            const who = await signedInView(mount, session);
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
            tags,
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
      )
      .post(
        `${prefix}/oauth/authorize`,
        async ({ request, body, params: p, set }) => {
          const mount = await mountOf(request, slugOf(p));
          const contentType = request.headers.get("content-type");
          if (isJson(contentType)) {
            set.status = 201;
            return { redirect_to: await decideJson(mount, request, body as Uint8Array, set) };
          }
          return decideForm(mount, request, body as Uint8Array);
        },
        {
          rawBody: true,
          ...(params ? { params } : {}),
          // No `response` schemas: the plugin would replace the responses below with them, and the
          // form post's answers (303, HTML pages) cannot be said there.
          detail: {
            ...authenticated,
            tags,
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

  /** The signed-in person as the page shows them, with the workspaces they may choose; null when none fits the mount. */
  async function signedInView(mount: Mount, session: Session): Promise<SignedIn | null> {
    const identity = await core.stores.identities.getById(session.identity_id);
    if (!identity) return null;
    if (mount.slug !== null) {
      const ws = await core.stores.workspaces.getBySlug(mount.slug);
      return ws && (await sessionPrincipal(core, session, ws)) ? { email: identity.email, workspaces: [] } : null;
    }
    const memberships = await core.stores.identities.memberships(identity.id, 100);
    if (memberships.length === 0) return null;
    return { email: identity.email, workspaces: memberships.map((m) => ({ slug: m.workspace.slug, name: m.workspace.name })) };
  }

  const redirect = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

  /** Checks the decided request again; its refusals are the decision's 400 (nothing issued). */
  async function recheck(mount: Mount, params: AuthorizationParams): Promise<AuthorizationRequest> {
    const check = await checkAuthorizationRequest(core, params, mount.origin);
    if (!check.ok) {
      const r = check.refusal;
      throw validationFailed(r.kind === "fatal" ? r.description : r.description, [{
        path: "body",
        message: r.kind === "fatal" ? "invalid" : r.error,
      }]);
    }
    return check.request;
  }

  /** The decider, by API key or session; pinned to the mount's workspace (another's key is a 404). */
  function assertDecider(mount: Mount, auth: Authenticated, workspace: string | null | undefined) {
    if (auth.principal.via === "oauth") throw forbidden("Cannot authorize a client: decide with a person's API key, or signed in");
    if (auth.principal.kind !== "identity") throw forbidden("Cannot authorize a client: a service key acts for no person");
    if (mount.slug !== null && auth.workspace.slug !== mount.slug) throw notFound("Workspace");
    if (workspace && workspace !== auth.workspace.slug) throw notFound("Workspace");
  }

  async function decide(mount: Mount, auth: Authenticated | null, req: AuthorizationRequest, decision: string): Promise<string> {
    if (decision === "deny" || !auth) {
      return authorizationResponseUri(
        req.redirect_uri,
        { error: "access_denied", error_description: "The user denied the request" },
        req.state,
        mount.issuer,
      );
    }
    const approved = identityValue(await approveAuthorization(core, auth.principal, req, mount.issuer));
    return authorizationResponseUri(req.redirect_uri, { code: approved.code }, req.state, mount.issuer);
  }

  async function decideJson(mount: Mount, request: Request, raw: Uint8Array, set: HeaderSink): Promise<string> {
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
    const auth = await optionalPrincipal(deps, request.headers) ?? await sessionDecider(mount, request, body, set);
    assertDecider(mount, auth, body.workspace);
    const req = await recheck(mount, body);
    return decide(mount, auth, req, body.decision);
  }

  /**
   * Without a header credential, the dashboard session decides (ADR 044): the signed-in person in
   * the mount's workspace, or at the root mount the `workspace` named (required then). Like the
   * consent form: this service's `Origin` (sessionOf) and the consent page's CSRF token with its cookie.
   */
  async function sessionDecider(mount: Mount, request: Request, body: AuthorizeDecision, set: HeaderSink): Promise<Authenticated> {
    const session = await sessionOf(deps, request, set);
    if (!session) {
      throw unauthenticated("Missing credentials: decide with a person's API key (x-api-key or Authorization: Bearer), or sign in");
    }
    if (!csrf.verify(cookieValue(request.headers.get("cookie"), CSRF_COOKIE), body.csrf_token ?? null, session.id)) {
      throw forbidden("Cannot decide by session: send the consent page's csrf_token, with its cookie");
    }
    const slug = mount.slug ?? body.workspace;
    if (!slug) {
      throw validationFailed("Invalid request body: name the workspace to authorize the client in", [
        { path: "body/workspace", message: "required when deciding by session at the root mount" },
      ]);
    }
    const workspace = await core.stores.workspaces.getBySlug(slug);
    const auth = workspace ? await sessionPrincipal(core, session, workspace) : null;
    if (!auth) throw notFound("Workspace");
    return auth;
  }

  async function decideForm(mount: Mount, request: Request, raw: Uint8Array): Promise<Response> {
    if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) {
      throw validationFailed("Invalid request: send JSON, or the consent page's form");
    }
    const form = new URLSearchParams(new TextDecoder().decode(raw));
    const get = (k: string) => str(form.get(k));
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
    const check = await checkAuthorizationRequest(core, params, mount.origin);
    const html = (status: number, page: string, redirectUri: string | null) =>
      new Response(page, { status, headers: consentHeaders(redirectUri) });
    if (!check.ok) {
      const r = check.refusal;
      if (r.kind === "fatal") return html(400, renderAuthorizationError(r.description), null);
      return redirect(
        authorizationResponseUri(r.redirect_uri, { error: r.error, error_description: r.description }, r.state, mount.issuer),
      );
    }
    const req = check.request;
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
    const cookie = cookieValue(request.headers.get("cookie"), CSRF_COOKIE);
    if (!csrf.verify(cookie, get(CSRF_FIELD), session?.id)) {
      return withCookies(
        html(400, renderAuthorizationError("The form expired or did not come from this page: go back and reload it"), null),
        cookies,
      );
    }
    const again = async (status: number, error: string) => {
      const token = csrf.issue(session?.id);
      const secure = mount.origin.startsWith("https:") ? "; Secure" : "";
      const signedIn = session ? (await signedInView(mount, session)) ?? undefined : undefined;
      const page = renderConsentPage({
        request: req,
        workspace: mount.slug,
        action: `${mount.base}/oauth/authorize`,
        csrf: token,
        error,
        signedIn,
      });
      return withCookies(
        new Response(page, {
          status,
          headers: {
            ...consentHeaders(req.redirect_uri),
            "set-cookie": `${CSRF_COOKIE}=${token}; Path=${API_PREFIX}; HttpOnly; SameSite=Strict; Max-Age=3600${secure}`,
          },
        }),
        cookies,
      );
    };
    const decision = get("decision");
    if (decision === "deny") return withCookies(redirect(await decide(mount, null, req, "deny")), cookies);
    if (decision !== "approve") return again(400, "Choose Allow or Deny");
    if (session) {
      // Signed in: the session's person decides, in the mount's workspace or the one chosen.
      const slug = mount.slug ?? get("workspace");
      const workspace = slug ? await core.stores.workspaces.getBySlug(slug) : null;
      const auth = workspace ? await sessionPrincipal(core, session, workspace) : null;
      if (!auth) return again(404, "Choose one of your workspaces");
      return withCookies(redirect(await decide(mount, auth, req, "approve")), cookies);
    }
    const key = get("api_key")?.trim();
    if (!key) return again(401, "Enter one of your API keys to allow access");
    let auth: Authenticated;
    try {
      auth = await authenticateApiKey(core, key);
      assertDecider(mount, auth, null);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      if (e.code === "UNAUTHENTICATED") return again(401, "That API key is not valid");
      if (e.code === "NOT_FOUND") return again(404, `That API key belongs to another workspace than ${mount.slug}`);
      return again(403, "That key acts for no person: use one of your personal API keys");
    }
    return redirect(await decide(mount, auth, req, "approve"));
  }

  // ---- a workspace's grants ----

  const grants = workspaceScope(deps, "oauth-grants")
    .get(
      "/oauth/grants",
      async ({ principal, query }) =>
        identityValue(await listGrants(core, principal, { limit: query.limit, cursor: query.cursor ?? null })),
      {
        params: Type.Object({ slug: SlugSchema }, strict),
        query: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
          cursor: Type.Optional(IdSchema),
        }, strict),
        response: {
          200: Type.Object({ items: Type.Array(GrantView), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
          ...errors(400, 401, 403, 404),
        },
        detail: {
          ...authenticated,
          tags,
          summary: "List OAuth grants",
          description:
            "The live grants of the workspace, newest first, in keyset pages (`limit` ≤ 100, `cursor` = `nextCursor`): the caller's own; owners and admins see everyone's. Each: client, scopes, creation and last use. A faceless key has none (403).",
        },
      },
    )
    .delete(
      "/oauth/grants/:id",
      async ({ principal, params }) => {
        identityValue(await revokeGrant(core, principal, params.id));
        return { id: params.id, deleted: true as const };
      },
      {
        params: Type.Object({ slug: SlugSchema, id: IdSchema }, strict),
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }), ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "Revoke an OAuth grant",
          description:
            "Ends the grant and every token issued under it at once (the next request with them is a 401). One's own; owners and admins any (to a member another person's grant is a 404, as an unknown one). A faceless key has none (403). Over OAuth it needs `work:write` (403 `insufficient_scope`). Publishes `oauth.grant.revoked`.",
        },
      },
    );

  /** RFC 8414 metadata, at the origin's root (§3.1: the issuer's path after the well-known name). */
  function metadataRoute(prefix: "" | "/workspaces/:slug") {
    const params = prefix === "" ? undefined : Type.Object({ slug: SlugSchema }, strict);
    const at = prefix === "" ? "the root issuer" : "a workspace's issuer";
    const slugOf = (p: unknown) => (prefix === "" ? undefined : (p as { slug: string }).slug);
    return new Elysia({ name: `oauth-metadata${prefix}` })
      .get(
        prefix === "" ? METADATA_PATH : `${METADATA_PATH}${API_PREFIX}/workspaces/:slug`,
        async ({ request, params: p, set }) => {
          openCors(set.headers);
          return metadataOf(await mountOf(request, slugOf(p)));
        },
        {
          ...(params ? { params } : {}),
          response: { 200: AuthorizationServerMetadata, ...errors(400, 404) },
          detail: {
            ...publicOperation,
            tags: ["system", ...tags],
            summary: `Authorization server metadata (RFC 8414), of ${at}`,
            description:
              "Public, readable from any origin, no cookies. The root issuer is `PUBLIC_URL`; a workspace's is `{PUBLIC_URL}/api/v1/workspaces/{slug}`, its metadata at `/.well-known/oauth-authorization-server/api/v1/workspaces/{slug}` (RFC 8414 §3.1); unknown workspace 404.",
          },
        },
      );
  }

  return {
    api: new Elysia({ name: "oauth" }).use(mountRoutes("")).use(mountRoutes("/workspaces/:slug")).use(grants),
    root: new Elysia({ name: "oauth-metadata" }).use(metadataRoute("")).use(metadataRoute("/workspaces/:slug")),
  };
}

const AuthorizeDecision = Type.Object({
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

/** RFC 7591 client metadata, as documented; read by hand (readClientMetadata), so a wrong type is the RFC's error, not the envelope's. */
const ClientMetadataBody = Type.Object({
  redirect_uris: Type.Optional(Type.Unknown({ description: "Required: https URIs, or http on a loopback host; no fragment." })),
  token_endpoint_auth_method: Type.Optional(
    Type.Unknown({
      description: "`none` (public), `client_secret_basic` (confidential, the default when absent, RFC 7591 §2) or `client_secret_post`.",
    }),
  ),
  grant_types: Type.Optional(Type.Unknown({ description: "A subset of `authorization_code`, `refresh_token`." })),
  response_types: Type.Optional(Type.Unknown({ description: "A subset of `code`." })),
  client_name: Type.Optional(Type.Unknown()),
  client_uri: Type.Optional(Type.Unknown()),
  logo_uri: Type.Optional(Type.Unknown()),
  scope: Type.Optional(Type.Unknown({ description: "The default scopes when an authorization request names none." })),
}, { additionalProperties: true, description: "RFC 7591 client metadata; unknown metadata is ignored." });

/**
 * A registration body as JSON (RFC 7591 §3.1), read here rather than by the app's parser so that
 * every refusal is the RFC's `invalid_client_metadata`: anything but a JSON document reads as
 * `undefined`, which readClientMetadata refuses. Text holding U+0000 is refused too, as the app's
 * parser does (no store keeps it).
 */
function registrationBodyOf(request: Request, raw: Uint8Array): unknown {
  if (!isJson(request.headers.get("content-type"))) return undefined;
  const text = new TextDecoder().decode(raw);
  if (text.includes("\\u0000") || text.includes("\0")) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
