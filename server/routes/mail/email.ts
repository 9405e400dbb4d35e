import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { AppError } from "../../../core/kernel/mod.ts";
import { checkUnsubscribeToken, unsubscribe } from "../../../core/mail/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { ErrorEnvelope } from "../../http/error-envelope.ts";
import { clientAddress, enforceRateLimit } from "../../http/rate-limit.ts";
import { rawBody } from "../../http/raw-body.ts";
import { requestFacts } from "../../http/request-context.ts";
import { publicOperation, strict } from "../../http/schemas.ts";
import {
  renderBadUnsubscribeLink,
  renderUnsubscribeConfirm,
  renderUnsubscribed,
  UNSUBSCRIBE_SECURITY_HEADERS,
} from "../../http/unsubscribe-page.ts";

const TokenQuery = Type.Object(
  {
    token: Type.Optional(
      Type.String({
        maxLength: 300,
        description: "The token of the link in the message (names the person and the list, signed). Missing, malformed or forged: 400.",
      }),
    ),
  },
  strict,
);

type Responses = Record<string, { description: string; content: Record<string, { schema: Record<string, unknown> }> }>;

const html = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const badToken = {
  description:
    "A missing, malformed or forged token: an HTML page. An unknown query parameter is the JSON error envelope (`VALIDATION_FAILED`).",
  content: { "text/html": { schema: { type: "string" } }, "application/json": { schema: ErrorEnvelope } },
};
const rateLimited = {
  description: "Too many requests from this client address (`RATE_LIMITED`), with `Retry-After`.",
  content: { "application/json": { schema: ErrorEnvelope } },
};

/**
 * The unsubscribe link of every message (`List-Unsubscribe`). GET changes nothing (mail scanners
 * and link previews fetch links): it shows a page whose button POSTs. POST (that form, or a mail
 * client's RFC 8058 one-click `List-Unsubscribe=One-Click`) leaves the list. Both are public, the
 * token being the credential, counted per client address, and script-free.
 */
export function emailRoutes(deps: ServerDeps) {
  const secret = deps.core.mail?.secret ?? deps.config.secretKey ?? crypto.randomUUID();
  const guard = async (request: Request, server: Parameters<typeof clientAddress>[1], set: { headers: Record<string, unknown> }) => {
    Object.assign(set.headers, UNSUBSCRIBE_SECURITY_HEADERS);
    const limits = deps.rateLimits;
    const address = clientAddress(request, server, limits.trustProxy);
    await enforceRateLimit(limits, deps.logger, `ip:${address}:unsubscribe`, limits.perIp, set.headers);
  };
  /** A bad token's page, 400; any other failure goes on to the error envelope. */
  const badLink = (e: unknown, request: Request, set: { status?: number | string; headers: Record<string, unknown> }) => {
    if (!(e instanceof AppError) || e.code !== "VALIDATION_FAILED") throw e;
    set.status = 400;
    return renderBadUnsubscribeLink(requestFacts(request, set as never).id);
  };
  const detail = (summary: string, description: string, responses: Responses) => ({
    ...publicOperation,
    tags: ["email"],
    summary,
    description,
    responses,
  });

  return new Elysia({ name: "email" })
    .use(rawBody)
    .get(
      "/email/unsubscribe",
      async ({ query, request, server, set }) => {
        await guard(request, server, set);
        try {
          const { list } = await checkUnsubscribeToken(secret, query.token);
          return renderUnsubscribeConfirm(list, query.token!);
        } catch (e) {
          return badLink(e, request, set);
        }
      },
      {
        query: TokenQuery,
        detail: detail(
          "Unsubscribe page",
          "Public; the token is the credential. Changes nothing (mail scanners fetch links): an HTML page naming the list, whose button POSTs to the same address. No script may run on it (Content-Security-Policy `default-src 'none'`, `form-action 'self'`).",
          { 200: html("The confirmation page."), 400: badToken, 429: rateLimited },
        ),
      },
    )
    .post(
      "/email/unsubscribe",
      async ({ query, request, server, set }) => {
        await guard(request, server, set);
        try {
          const { list } = await unsubscribe(deps.core, secret, query.token);
          set.status = 200;
          return renderUnsubscribed(list);
        } catch (e) {
          return badLink(e, request, set);
        }
      },
      {
        rawBody: true,
        query: TokenQuery,
        detail: detail(
          "Unsubscribe",
          "Public; the token is the credential. Leaves the list the token names: no more mail of it goes to that person, from any workspace. Idempotent: again is the same 200. Takes the page's form or a mail client's one-click POST (RFC 8058: `List-Unsubscribe=One-Click`, form-encoded); the body is not required. Answers a small HTML page.",
          {
            200: html("Unsubscribed (now or before)."),
            400: badToken,
            413: { description: "Body too large.", content: { "application/json": { schema: ErrorEnvelope } } },
            429: rateLimited,
          },
        ),
      },
    );
}
