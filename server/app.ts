import { collectionRoutes } from "./routes/collections/collections.ts";
import { creditRoutes } from "./routes/credits/credits.ts";
import { billingRoutes } from "./routes/billing/billing.ts";
import { criterionRoutes } from "./routes/radar/criteria.ts";
import { radarContactRoutes } from "./routes/contacts/contacts.ts";
import { radarRunRoutes } from "./routes/radar/runs.ts";
import { entityRoutes } from "./routes/collections/entities.ts";
import { recordRoutes } from "./routes/collections/records.ts";
import { recordTransferRoutes } from "./routes/collections/transfer.ts";
import { workspaceArchiveRoutes } from "./routes/portability/archive.ts";
import { cors } from "@elysiajs/cors";
import { openapi } from "@elysiajs/openapi";
import "./http/string-formats.ts";
import { Elysia } from "elysia";
import { AppError, validationFailed } from "../core/kernel/mod.ts";
import type { ServerDeps } from "./deps.ts";
import { deprecationHeadersAt } from "./http/deprecations.ts";
import { errorResponse } from "./http/error-envelope.ts";
import { STATUS_OF } from "./http/error-status.ts";
import { challengeFor } from "./http/challenge.ts";
import { publicOrigin } from "./http/public-origin.ts";
import { toAppError } from "./http/elysia-errors.ts";
import { allowedMethodsOf } from "./http/method-not-allowed.ts";
import { API_PREFIX } from "./http/api-prefix.ts";
import { conformingOpenApi } from "./http/openapi-conformance.ts";
import { integerQueryCoercion } from "./http/query-coercion.ts";
import { jsonBodyParser } from "./http/raw-body.ts";
import { beginRequest, requestFacts } from "./http/request-context.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { bodyLimitOf } from "./http/upload-limits.ts";
import { apiKeyRoutes } from "./routes/access/api-keys.ts";
import { apiReferenceRoutes } from "./routes/system/api-reference.ts";
import { areaRoutes } from "./routes/workspaces/areas.ts";
import { eventRoutes } from "./routes/events/events.ts";
import { memberRoutes } from "./routes/workspaces/members.ts";
import { publicShareRoutes } from "./routes/sharing/public-shares.ts";
import { mcpRoutes } from "./routes/mcp/mcp.ts";
import { oauthRoutes } from "./routes/oauth/mod.ts";
import { openCorsPreflight, protectedResourceRoutes } from "./routes/access/protected-resource.ts";
import { repoRoutes } from "./routes/workspaces/repos.ts";
import { sharingRoutes } from "./routes/sharing/sharing.ts";
import { systemRoutes } from "./routes/system/system.ts";
import { blogRoutes } from "./routes/blog/blog.ts";
import { emailRoutes } from "./routes/mail/email.ts";
import { supportRoutes } from "./routes/support-desk/support.ts";
import { tagRoutes } from "./routes/topics/tags.ts";
import { topicRoutes } from "./routes/topics/topics.ts";
import { topicImportRoutes } from "./routes/topics/import.ts";
import { billingWebhookRoutes, identityWebhookRoutes, radarWebhookRoutes, webhookRoutes } from "./routes/webhooks/webhooks.ts";
import { authRoutes } from "./routes/identity/auth.ts";
import { workspaceRoutes } from "./routes/workspaces/workspaces.ts";
import { platformBillingRoutes } from "./routes/offers/platform.ts";
import { billingOfferRoutes } from "./routes/offers/offers.ts";

/**
 * The longest request URL answered (a 400 beyond). The server runs with Bun's header limit raised
 * to 64 KiB (`--max-http-header-size`, see package.json), so a long URL gets this answer in the
 * error envelope rather than Bun's bare 431.
 */
export const MAX_URL_LENGTH = 8192;

/**
 * Builds the HTTP app from its dependencies, so tests build it in-process and `main.ts` serves
 * it. The chain for each request: request id and body limit → (controller) authenticate →
 * validate → handler; every failure leaves through one error envelope.
 */
export function buildApp(deps: ServerDeps) {
  const { logger, config } = deps;
  const oauth = oauthRoutes(deps);
  const unavailable = unavailableLog(logger);
  const corsOrigin = config.corsOrigins.includes("*") ? true : config.corsOrigins;

  const api = new Elysia({ prefix: API_PREFIX })
    .use(
      conformingOpenApi(openapi({
        path: "/docs",
        specPath: "/openapi.json",
        // The plugin's page loads Scalar from a CDN; apiReferenceRoutes serves the installed one.
        provider: null,
        // A path with a dot is not a static file here: `/.well-known/oauth-protected-resource` is documented.
        exclude: { staticFile: false },
        documentation: {
          info: {
            title: "Workspace Knowledge, Collections and Radar API",
            version: deps.build.version,
            description:
              'Multi-tenant API. Authenticate with an API key in the `x-api-key` header or as `Authorization: Bearer <key>` (never in the query string), or, from the dashboard, with the session cookie `wks_session` set by the OpenID Connect sign-in (`/auth/login`; unsafe methods need an `Origin` of this service); every 401 carries `WWW-Authenticate: Bearer resource_metadata="…/.well-known/oauth-protected-resource"`, and a 403 for a missing scope `error="insufficient_scope"` with the `scope` needed. Every error is `{ error: { code, message, details, request_id } }`; request bodies are strict JSON (unknown fields are a 400 `VALIDATION_FAILED`), and no text may hold U+0000 (NUL). A path asked with a method it does not declare is a 405 `METHOD_NOT_ALLOWED` with `Allow`. While the database (or the job queue) cannot be reached, an operation that needs it answers 503 `STORE_UNAVAILABLE` with `Retry-After` at once; `/health/ready` says whether the service can serve.',
          },
          components: {
            securitySchemes: {
              apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
              bearer: {
                type: "http",
                scheme: "bearer",
                description:
                  "`Authorization: Bearer <credential>`: an API key, the same as in `x-api-key` (both headers with different values are a 401), or an OAuth access token (`wkat_…`).",
              },
              session: {
                type: "apiKey",
                in: "cookie",
                name: "wks_session",
                description:
                  "The dashboard session, set by the OpenID Connect sign-in (`GET /api/v1/auth/login` → `/auth/callback`) and ended by `POST /api/v1/auth/logout`: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` on https, 30 days (extended when used with under half left). It acts as the signed-in person with their role in the workspace of the path (no membership: 404). A request with an unsafe method (POST, PUT, PATCH, DELETE) riding it needs an `Origin` of this service, else 403. A header credential wins: with `x-api-key` or `Authorization` the cookie is not read. Not accepted by the platform operator's routes (`/platform/**`, the credit grant) nor by the MCP endpoint (docs/decisions/044-sessions-everywhere-a-person-acts.md).",
              },
              oauth2: {
                type: "oauth2",
                description:
                  "OAuth 2.1 authorization code with PKCE (S256), dynamic client registration at `/api/v1/oauth/register`; the token is sent as `Authorization: Bearer`. Each workspace is also an issuer of its own at `/api/v1/workspaces/{slug}` (docs/decisions/029-oauth-server.md).",
                flows: {
                  authorizationCode: {
                    authorizationUrl: "/api/v1/oauth/authorize",
                    tokenUrl: "/api/v1/oauth/token",
                    refreshUrl: "/api/v1/oauth/token",
                    scopes: {
                      "work:read": "Read the workspace (always granted)",
                      "work:write": "Every write; with an owner or admin behind the token, their operations too",
                      "topics:write": "Add topic relations, and nothing else",
                    },
                  },
                },
              },
            },
          },
        },
      })),
    )
    .use(apiReferenceRoutes())
    .use(systemRoutes(deps))
    .use(blogRoutes(deps))
    .use(emailRoutes(deps))
    .use(workspaceRoutes(deps))
    .use(apiKeyRoutes(deps))
    .use(memberRoutes(deps))
    .use(areaRoutes(deps))
    .use(repoRoutes(deps))
    .use(eventRoutes(deps))
    .use(topicRoutes(deps, "/topics"))
    .use(topicRoutes(deps, "/watchers"))
    .use(new Elysia({ name: "topic-import" }).use(topicImportRoutes(deps, "/topics")).use(topicImportRoutes(deps, "/watchers")))
    // Grouped: Elysia types every .use() into the chain, and a longer chain passes TypeScript's depth limit.
    .use(new Elysia({ name: "inbound-webhooks" }).use(webhookRoutes(deps)).use(radarWebhookRoutes(deps)).use(identityWebhookRoutes(deps)))
    .use(supportRoutes(deps))
    .use(sharingRoutes(deps))
    .use(publicShareRoutes(deps, "api"))
    .use(tagRoutes(deps))
    .use(collectionRoutes(deps))
    .use(recordRoutes(deps))
    .use(entityRoutes(deps))
    .use(creditRoutes(deps))
    // Billing's routes as one plugin: the chain's type is near TypeScript's depth limit.
    .use(new Elysia({ name: "billing-all" }).use(billingRoutes(deps)).use(billingWebhookRoutes(deps)))
    .use(criterionRoutes(deps))
    .use(radarRunRoutes(deps))
    .use(radarContactRoutes(deps))
    .use(oauth.api)
    .use(authRoutes(deps))
    .use(mcpRoutes(deps, "api"));
  // Registered as statements of their own: one more link in the chain above exceeds tsc's
  // instantiation depth (TS2589); the routes register on `api` all the same.
  api.use(platformBillingRoutes(deps));
  api.use(billingOfferRoutes(deps));
  api.use(recordTransferRoutes(deps));
  api.use(workspaceArchiveRoutes(deps));

  const root = new Elysia({ normalize: false });
  root.use(securityHeaders(deps.rateLimits.trustProxy));
  const allowedMethods = allowedMethodsOf(root);
  // The protected-resource metadata is readable from any origin, whatever CORS_ORIGINS says: its
  // preflight is answered before the CORS plugin's (which would name only the configured origins).
  root.use(openCorsPreflight);
  // CORS costs a third of the throughput of a small request, so only pay for it when configured.
  if (config.corsOrigins.length > 0) {
    root.use(
      cors({
        origin: corsOrigin,
        exposeHeaders: ["x-request-id", "www-authenticate"],
        allowedHeaders: ["content-type", "x-api-key", "authorization", "if-match", "x-request-id", "mcp-protocol-version"],
      }),
    );
  }
  root
    // Synchronous, and written so that Elysia sees it so (it reads a hook's source: `return f(` or
    // the words async/await make it await the hook and every route's handler an async function).
    .onRequest(({ request, set }) => {
      const refusal = refusedBeforeRouting(request, beginRequest(request, set).id, config);
      if (refusal) return refusal;
    })
    // One strict JSON parser for every route but those declaring `rawBody` (signed webhooks).
    .onParse({ as: "global" }, jsonBodyParser(root, config.bodyLimitBytes))
    .onTransform({ as: "global" }, integerQueryCoercion(root))
    .onError({ as: "global" }, ({ code, error, request, set }) => {
      const facts = requestFacts(request, set);
      const url = new URL(request.url);
      // A deprecated alias's headers on every answer of its paths, also those refused before its routes' hooks run.
      const alias = deprecationHeadersAt(url);
      // A known path asked with a method it does not declare is a 405 naming those it does, even
      // when a parameter route of that method caught the request first (PATCH /collections/doctor).
      if (code === "NOT_FOUND" || code === "VALIDATION" || code === "PARSE") {
        const allowed = allowedMethods(url.pathname);
        if (allowed && !allowed.includes(request.method)) {
          const refusal = new AppError(
            "METHOD_NOT_ALLOWED",
            `Method not allowed: ${request.method} is not an operation of this path, which answers ${allowed.join(", ")}`,
          );
          return errorResponse(refusal, facts.id, { allow: allowed.join(", "), ...alias });
        }
      }
      const appError = toAppError(code, error);
      set.status = STATUS_OF[appError.code];
      if (appError.code === "INTERNAL") {
        logger.log("error", "unhandled error", {
          request_id: facts.id,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
      }
      // RateLimit-* (and an alias's Deprecation/Sunset/Link) headers set before the failure still belong on the error response.
      const carried: Record<string, string> = { ...alias };
      // The database (or the job queue) is not answering: worth a retry in a moment.
      if (appError.code === "STORE_UNAVAILABLE") {
        carried["retry-after"] = "1";
        unavailable(facts.id, appError);
      }
      for (const [name, value] of Object.entries(set.headers)) {
        if (name.startsWith("ratelimit-") || name === "deprecation" || name === "sunset" || name === "link") carried[name] = String(value);
      }
      // Every 401, and a 403 for a missing scope, says how to authenticate (RFC 6750, RFC 9728).
      const challenge = challengeFor(appError, request, publicOrigin(request, config.publicUrl, deps.rateLimits.trustProxy));
      if (challenge) carried["www-authenticate"] = challenge;
      return errorResponse(appError, facts.id, carried);
    });
  // Elysia schedules after-response hooks on every request; only register one when it logs.
  if (logger.enabled("info")) {
    root.onAfterResponse({ as: "global" }, ({ request, route, set }) => {
      const facts = requestFacts(request, set);
      logger.log("info", "request", {
        request_id: facts.id,
        method: request.method,
        route,
        status: typeof set.status === "number" ? set.status : 200,
        duration_ms: Math.round((performance.now() - facts.start) * 100) / 100,
      });
    });
  }
  return root
    // Share links carry the root address `/s/{token}`; the same table also answers under /api/v1.
    .use(publicShareRoutes(deps, "root"))
    .use(protectedResourceRoutes(deps))
    .use(oauth.root)
    // The MCP server (JSON-RPC, not in the OpenAPI document) at the root and under /api/v1.
    .use(mcpRoutes(deps, "root"))
    .use(api);
}

export type App = ReturnType<typeof buildApp>;

/**
 * Logs why requests are refused with 503 STORE_UNAVAILABLE (the driver's error, which the client
 * does not see), at most once a second: an outage refuses many requests for one reason.
 */
function unavailableLog(logger: ServerDeps["logger"]) {
  let last = 0;
  let suppressed = 0;
  return (requestId: string, error: AppError) => {
    const now = performance.now();
    if (now - last < 1_000) {
      suppressed++;
      return;
    }
    last = now;
    const cause = (error as { cause?: unknown }).cause;
    logger.log("warn", "store unavailable", {
      request_id: requestId,
      error: error.message,
      cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : cause === undefined ? undefined : String(cause),
      ...(suppressed > 0 ? { also_refused: suppressed } : {}),
    });
    suppressed = 0;
  };
}

/** The answer to a request refused before any route sees it, else undefined. */
function refusedBeforeRouting(request: Request, requestId: string, config: ServerDeps["config"]): Response | undefined {
  const url = request.url;
  // No store takes a NUL character in text (PostgreSQL refuses it), and no URL needs 8 KB.
  if (url.length > MAX_URL_LENGTH) {
    return errorResponse(
      validationFailed(`Invalid request: the URL is longer than ${MAX_URL_LENGTH} characters`, [{ path: "url", message: "too long" }]),
      requestId,
    );
  }
  if (url.includes("%00")) {
    return errorResponse(
      validationFailed("Invalid request: the URL holds a NUL character (%00)", [{ path: "url", message: "holds %00" }]),
      requestId,
    );
  }
  const method = request.method;
  if (method === "GET" || method === "HEAD") return undefined;
  const length = Number(request.headers.get("content-length") ?? 0);
  // The path is only looked at for a body over the usual limit: a streamed upload may take more.
  const limit = length > config.bodyLimitBytes ? bodyLimitOf(method, url, config) : config.bodyLimitBytes;
  if (length > limit) {
    return errorResponse(new AppError("PAYLOAD_TOO_LARGE", `Request body too large: the limit is ${limit} bytes`), requestId);
  }
  return undefined;
}
