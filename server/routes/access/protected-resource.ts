import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { SCOPES } from "../../../core/access/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { PROTECTED_RESOURCE_PATH, publicOrigin } from "../../http/public-origin.ts";
import { errors, publicOperation } from "../../http/schemas.ts";

const ProtectedResourceMetadata = Type.Object(
  {
    resource: Type.String({ description: "This service's identifier: `PUBLIC_URL` (or the origin the request reached)." }),
    authorization_servers: Type.Array(Type.String(), { description: "Issuers that grant access tokens for it: this service." }),
    scopes_supported: Type.Array(Type.String()),
    bearer_methods_supported: Type.Array(Type.Literal("header"), {
      description: "Only the `Authorization` header; never the query string.",
    }),
    resource_name: Type.String(),
  },
  { description: "OAuth 2.0 Protected Resource Metadata (RFC 9728)." },
);

/** Headers that let any page read the metadata, without cookies (no `Access-Control-Allow-Credentials`). */
export const OPEN_CORS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST",
  "access-control-allow-headers": "mcp-protocol-version, authorization, content-type",
  "access-control-expose-headers": "www-authenticate, x-request-id",
  "access-control-max-age": "600",
};

/**
 * Paths any origin may call without cookies: the metadata documents, and the OAuth endpoints a
 * browser-based client calls itself (token, registration, revocation) at either mount.
 */
const OPEN_PATHS =
  /^(?:\/\.well-known\/oauth-protected-resource|\/\.well-known\/oauth-authorization-server(?:\/api\/v1\/workspaces\/[^/]+)?|\/api\/v1(?:\/workspaces\/[^/]+)?\/oauth\/(?:token|register|revoke))$/;

export function isOpenCorsPath(pathname: string): boolean {
  return OPEN_PATHS.test(pathname);
}

/** Makes an answer readable from any origin, without cookies (whatever the CORS plugin set). */
export function openCors(headers: Record<string, unknown>): void {
  Object.assign(headers, OPEN_CORS);
  delete headers["access-control-allow-credentials"];
}

/**
 * Their CORS preflight, answered before the CORS plugin's (which, with CORS_ORIGINS set, names
 * only those origins and allows credentials): any origin, no cookies.
 */
export const openCorsPreflight = new Elysia({ name: "open-cors-preflight" }).onRequest(({ request }) => {
  if (request.method !== "OPTIONS" || !isOpenCorsPath(new URL(request.url).pathname)) return;
  return new Response(null, { status: 204, headers: OPEN_CORS });
});

/**
 * `GET /.well-known/oauth-protected-resource` (RFC 9728), at the root as §3 places it for a
 * resource whose identifier is the bare origin: which authorization server to ask, for which
 * scopes, and how to send a token. Every 401 points here (`resource_metadata`). Public, readable
 * from any origin, no cookies.
 */
export function protectedResourceRoutes(deps: ServerDeps) {
  return new Elysia({ name: "protected-resource" })
    .get(
      PROTECTED_RESOURCE_PATH,
      ({ request, set }) => {
        Object.assign(set.headers, OPEN_CORS);
        // No cookies: the CORS plugin's default credentials do not apply here.
        delete set.headers["access-control-allow-credentials"];
        const origin = publicOrigin(request, deps.config.publicUrl, deps.rateLimits.trustProxy);
        return {
          resource: origin,
          authorization_servers: [origin],
          scopes_supported: [...SCOPES],
          bearer_methods_supported: ["header" as const],
          resource_name: "Workspace Knowledge, Collections and Radar API",
        };
      },
      {
        response: { 200: ProtectedResourceMetadata, ...errors(400) },
        detail: {
          ...publicOperation,
          tags: ["system"],
          summary: "OAuth protected resource metadata (RFC 9728)",
          description:
            'Public, readable from any origin (`Access-Control-Allow-Origin: *`, no cookies). `resource` and the one authorization server are `PUBLIC_URL` (by default the origin the request reached; `X-Forwarded-Proto`/`-Host` count only with `TRUST_PROXY`). Every 401 names this document in `WWW-Authenticate: Bearer resource_metadata="…"`. Bearer credentials go in the `Authorization` header only.',
        },
      },
    );
}
