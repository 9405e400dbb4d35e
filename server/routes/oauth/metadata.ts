import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { SCOPES } from "../../../core/access/mod.ts";
import { CLIENT_AUTH_METHODS, GRANT_TYPES, type OAuthMount } from "../../../core/identity/mod.ts";
import { API_PREFIX } from "../../http/api-prefix.ts";
import { errors, publicOperation } from "../../http/schemas.ts";
import { openCors } from "../access/protected-resource.ts";
import { type MountPrefix, mountShape, type OAuthContext } from "./mounts.ts";

const METADATA_PATH = "/.well-known/oauth-authorization-server";

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

/** What a mount serves: the endpoints, and what the registration, token and revocation endpoints accept. */
const metadataOf = (m: OAuthMount) => ({
  issuer: m.issuer,
  authorization_endpoint: `${m.base}/oauth/authorize`,
  token_endpoint: `${m.base}/oauth/token`,
  registration_endpoint: `${m.base}/oauth/register`,
  revocation_endpoint: `${m.base}/oauth/revoke`,
  scopes_supported: [...SCOPES],
  response_types_supported: ["code" as const],
  response_modes_supported: ["query" as const],
  grant_types_supported: [...GRANT_TYPES],
  code_challenge_methods_supported: ["S256" as const],
  token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
  revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
  authorization_response_iss_parameter_supported: true as const,
  service_documentation: `${m.origin}${API_PREFIX}/docs`,
});

/** RFC 8414 metadata, at the origin's root (§3.1: the issuer's path after the well-known name). */
export function metadataRoute(ctx: OAuthContext, prefix: MountPrefix) {
  const { params, slugOf } = mountShape(prefix);
  const at = prefix === "" ? "the root issuer" : "a workspace's issuer";
  return new Elysia({ name: `oauth-metadata${prefix}` })
    .get(
      prefix === "" ? METADATA_PATH : `${METADATA_PATH}${API_PREFIX}/workspaces/:slug`,
      async ({ request, params: p, set }) => {
        openCors(set.headers);
        return metadataOf(await ctx.mountOf(request, slugOf(p)));
      },
      {
        ...(params ? { params } : {}),
        response: { 200: AuthorizationServerMetadata, ...errors(400, 404) },
        detail: {
          ...publicOperation,
          tags: ["system", "oauth"],
          summary: `Authorization server metadata (RFC 8414), of ${at}`,
          description:
            "Public, readable from any origin, no cookies. The root issuer is `PUBLIC_URL`; a workspace's is `{PUBLIC_URL}/api/v1/workspaces/{slug}`, its metadata at `/.well-known/oauth-authorization-server/api/v1/workspaces/{slug}` (RFC 8414 §3.1); unknown workspace 404.",
        },
      },
    );
}
