import { Elysia } from "elysia";
import type { ServerDeps } from "../../deps.ts";
import { authorizeRoutes } from "./authorize.ts";
import { grantRoutes } from "./grants.ts";
import { metadataRoute } from "./metadata.ts";
import { type MountPrefix, oauthContext } from "./mounts.ts";
import { registerRoutes } from "./register.ts";
import { revokeRoute } from "./revoke.ts";
import { tokenRoute } from "./token.ts";

/**
 * The OAuth 2.1 authorization server (docs/decisions/029-oauth-server.md, 059): registration (RFC 7591),
 * client information, the consent page and its decision, the token and revocation endpoints
 * (RFC 6749, RFC 7009), the metadata (RFC 8414), and a workspace's grants. Two mounts, each its own
 * issuer: the root (`{PUBLIC_URL}`), and `/workspaces/{slug}` (`{PUBLIC_URL}/api/v1/workspaces/{slug}`),
 * pinned to that workspace. One client registry serves both. The protocol is core's (core/identity/):
 * these routes read HTTP and write the answers.
 */
export function oauthRoutes(deps: ServerDeps) {
  const ctx = oauthContext(deps);
  const mount = (prefix: MountPrefix) =>
    new Elysia({ name: `oauth${prefix}` })
      .use(registerRoutes(ctx, prefix))
      .use(tokenRoute(ctx, prefix))
      .use(revokeRoute(ctx, prefix))
      .use(authorizeRoutes(ctx, prefix));
  return {
    api: new Elysia({ name: "oauth" }).use(mount("")).use(mount("/workspaces/:slug")).use(grantRoutes(deps)),
    root: new Elysia({ name: "oauth-metadata" }).use(metadataRoute(ctx, "")).use(metadataRoute(ctx, "/workspaces/:slug")),
  };
}
