import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { ClientInfo, clientInformation, registerClient, RegisteredClient } from "../../../core/identity/mod.ts";
import { identityValue } from "../../http/error-status.ts";
import { isJson } from "../../http/json-body.ts";
import { rawBody } from "../../http/raw-body.ts";
import { errors, publicOperation } from "../../http/schemas.ts";
import { openCors } from "../access/protected-resource.ts";
import { oauthError } from "./answers.ts";
import { type MountPrefix, mountShape, type OAuthContext } from "./mounts.ts";

/** Dynamic client registration (RFC 7591) and a client's public information, at one mount. */
export function registerRoutes(ctx: OAuthContext, prefix: MountPrefix) {
  const { params, at, slugOf, withParams, rfcError400 } = mountShape(prefix);
  return new Elysia({ name: `oauth-register${prefix}` })
    .use(rawBody)
    .post(
      `${prefix}/oauth/register`,
      async ({ request, body, params: p, set, server }) => {
        openCors(set.headers);
        await ctx.limit(request, server, set, "oauth-register", 30);
        await ctx.mountOf(request, slugOf(p));
        const registered = await registerClient(ctx.deps.core, registrationBodyOf(request, body as Uint8Array));
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
          tags: ["oauth"],
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
        await ctx.mountOf(request, slugOf(p));
        return identityValue(await clientInformation(ctx.deps.core, (p as { clientId: string }).clientId));
      },
      {
        params: withParams({ clientId: Type.String({ maxLength: 200 }) }),
        response: { 200: ClientInfo, ...errors(400, 404) },
        detail: {
          ...publicOperation,
          tags: ["oauth"],
          summary: "A client's public information",
          description: "Name, URIs, logo, redirect URIs, and whether it is public or confidential; never a secret. Unknown: 404.",
        },
      },
    );
}

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
