import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { readClientCredentials, revokeClientToken } from "../../../core/identity/mod.ts";
import { rawBody } from "../../http/raw-body.ts";
import { errors, publicOperation } from "../../http/schemas.ts";
import { openCors } from "../access/protected-resource.ts";
import { formOf, OAuthError, oauthError, triedBasic } from "./answers.ts";
import { type MountPrefix, mountShape, type OAuthContext } from "./mounts.ts";

/** Token revocation (RFC 7009) at one mount: the revocation is core's (revokeClientToken). */
export function revokeRoute(ctx: OAuthContext, prefix: MountPrefix) {
  const { params, at, slugOf, rfcError400 } = mountShape(prefix);
  return new Elysia({ name: `oauth-revoke${prefix}` })
    .use(rawBody)
    .post(
      `${prefix}/oauth/revoke`,
      async ({ request, body, params: p, set, server }) => {
        openCors(set.headers);
        await ctx.mountOf(request, slugOf(p));
        const form = formOf(request, body);
        if (!form.ok) return oauthError(form.error);
        const basic = triedBasic(request);
        const credentials = readClientCredentials(request.headers.get("authorization"), form.value);
        if (!credentials.ok) return oauthError(credentials.error, { basic });
        await ctx.limit(request, server, set, `oauth-revoke:${credentials.value.client_id}`, 600);
        const revoked = await revokeClientToken(ctx.deps.core, { credentials: credentials.value, params: form.value });
        return revoked.ok ? {} : oauthError(revoked.error, { basic });
      },
      {
        rawBody: true,
        ...(params ? { params } : {}),
        response: { 200: Type.Object({}), 400: rfcError400, 401: OAuthError, ...errors(404, 413, 429) },
        detail: {
          ...publicOperation,
          tags: ["oauth"],
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
    );
}
