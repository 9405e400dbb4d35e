import { Elysia } from "elysia";
import { exchangeToken, readClientCredentials, TokenSet } from "../../../core/identity/mod.ts";
import { rawBody } from "../../http/raw-body.ts";
import { errors, publicOperation } from "../../http/schemas.ts";
import { openCors } from "../access/protected-resource.ts";
import { formOf, OAuthError, oauthError, tokenAnswer, triedBasic } from "./answers.ts";
import { type MountPrefix, mountShape, type OAuthContext } from "./mounts.ts";

/** The token endpoint (RFC 6749 §3.2) at one mount: the exchange is core's (exchangeToken). */
export function tokenRoute(ctx: OAuthContext, prefix: MountPrefix) {
  const { params, at, slugOf, rfcError400 } = mountShape(prefix);
  return new Elysia({ name: `oauth-token${prefix}` })
    .use(rawBody)
    .post(
      `${prefix}/oauth/token`,
      async ({ request, body, params: p, set, server }) => {
        openCors(set.headers);
        const mount = await ctx.mountOf(request, slugOf(p));
        const form = formOf(request, body);
        if (!form.ok) return oauthError(form.error);
        const basic = triedBasic(request);
        const credentials = readClientCredentials(request.headers.get("authorization"), form.value);
        if (!credentials.ok) return oauthError(credentials.error, { basic });
        await ctx.limit(request, server, set, `oauth-token:${credentials.value.client_id}`, 600);
        const tokens = await exchangeToken(ctx.deps.core, { credentials: credentials.value, params: form.value, issuer: mount.issuer });
        return tokens.ok ? tokenAnswer(tokens.value) : oauthError(tokens.error, { basic });
      },
      {
        rawBody: true,
        ...(params ? { params } : {}),
        response: { 200: TokenSet, 400: rfcError400, 401: OAuthError, ...errors(404, 413, 429) },
        detail: {
          ...publicOperation,
          tags: ["oauth"],
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
    );
}
