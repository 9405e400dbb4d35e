import { Elysia } from "elysia";
import { insufficientScope, missingScopes, scopesFor } from "../../../core/access/mod.ts";
import { AppError, isAppError } from "../../../core/kernel/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { optionalPrincipal } from "../../http/authenticate.ts";
import { publicOrigin } from "../../http/public-origin.ts";
import { enforceRateLimit } from "../../http/rate-limit.ts";
import { rawBody } from "../../http/raw-body.ts";
import { dispatch, operationOf } from "../../mcp/dispatch.ts";
import { classify, INVALID_REQUEST, PARSE_ERROR, rpcError } from "../../mcp/jsonrpc.ts";
import { acceptsRevisionHeader, SUPPORTED_REVISIONS } from "../../mcp/protocol.ts";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * The MCP server over Streamable HTTP (docs/decisions/027-mcp-and-bearer-credentials.md), at
 * `/mcp` and `/api/v1/mcp`: one JSON-RPC message per POST; a request is answered with
 * `application/json`, a notification or a response with 202 and no body. Stateless: no
 * `Mcp-Session-Id`, nothing kept between requests. GET and DELETE are 405 (`Allow: POST`): no
 * server-initiated stream, no session to end. Not in the OpenAPI document: it is JSON-RPC.
 *
 * The chain: Origin (403 unless ours or in CORS_ORIGINS: DNS rebinding) → credential (401 with
 * the `work:read` challenge) → rate limit per credential → `MCP-Protocol-Version` (400 when
 * unsupported) → the message (-32700, -32600) → a write tool's scope (403 `insufficient_scope`,
 * the step-up challenge) → the method.
 */
export function mcpRoutes(deps: ServerDeps, mount: "root" | "api") {
  return new Elysia({ name: `mcp:${mount}` }).use(rawBody).post(
    "/mcp",
    async ({ request, body, set }) => {
      if (!originAllowed(deps, request)) {
        return json(403, rpcError(null, INVALID_REQUEST, "Forbidden: this Origin may not call the MCP endpoint (see CORS_ORIGINS)"));
      }
      const auth = await authenticate(deps, request);
      const limits = deps.rateLimits;
      await enforceRateLimit(limits, deps.logger, `key:${auth.principal.credentialId}`, limits.perKey, set.headers);
      if (!acceptsRevisionHeader(request.headers.get("mcp-protocol-version"))) {
        return json(
          400,
          rpcError(null, INVALID_REQUEST, `Unsupported MCP-Protocol-Version: this server speaks ${SUPPORTED_REVISIONS.join(", ")}`),
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body as Uint8Array));
      } catch {
        return json(400, rpcError(null, PARSE_ERROR, "Parse error: the body is not JSON"));
      }
      const message = classify(parsed);
      if (message.kind === "invalid") return json(400, rpcError(message.id, INVALID_REQUEST, message.message));
      if (message.kind !== "request") return new Response(null, { status: 202 });
      const operation = operationOf(message);
      if (missingScopes(auth.principal, operation).length > 0) {
        throw insufficientScope(`call ${String(message.params.name)}`, operation);
      }
      const answer = await dispatch({ core: deps.core, ...auth }, message, deps.build.version);
      return json(200, answer);
    },
    { rawBody: true, detail: { hide: true } },
  );
}

/** Our own origin (PUBLIC_URL, or the request's), or one of CORS_ORIGINS; no Origin (not a browser) passes. */
function originAllowed(deps: ServerDeps, request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  if (origin === publicOrigin(request, deps.config.publicUrl, deps.rateLimits.trustProxy)) return true;
  return deps.config.corsOrigins.includes("*") || deps.config.corsOrigins.includes(origin);
}

/** The credential's principal; a 401 here names the scope MCP needs first (`work:read`). */
async function authenticate(deps: ServerDeps, request: Request) {
  const required_scope = scopesFor("read").join(" ");
  try {
    const auth = await optionalPrincipal(deps, request.headers);
    if (auth) return auth;
  } catch (error) {
    if (isAppError(error) && error.code === "UNAUTHENTICATED") {
      throw new AppError(error.code, error.message, error.details, { ...error.meta, required_scope });
    }
    throw error;
  }
  throw new AppError(
    "UNAUTHENTICATED",
    "Missing credentials: send an API key as Authorization: Bearer <key> (or in the x-api-key header)",
    [],
    { required_scope },
  );
}
