import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { AppError } from "../../../core/kernel/mod.ts";
import { readSharedTopic } from "../../../core/sharing/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { ErrorEnvelope, errorResponse } from "../../http/error-envelope.ts";
import { clientAddress, enforceRateLimit } from "../../http/rate-limit.ts";
import { requestFacts } from "../../http/request-context.ts";
import { strict } from "../../http/schemas.ts";
import { renderShareNotFound, renderSharePage, SHARE_SECURITY_HEADERS } from "../../http/share-page.ts";

const TokenParams = Type.Object(
  { token: Type.String({ description: "The token `POST /workspaces/{slug}/topics/{topic}/share` returned (43 base64url characters)." }) },
  strict,
);

type Responses = Record<string, { description: string; content: Record<string, { schema: Record<string, unknown> }> }>;

const html = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const envelope = (description: string) => ({ description, content: { "application/json": { schema: ErrorEnvelope } } });
const RATE_LIMITED = envelope("Too many requests from this client address (`RATE_LIMITED`), with `Retry-After`.");

/**
 * The public, unauthenticated pages of share links, mounted twice from this one table: at the
 * server's root (`/s/{token}`, the address links carry) and under `/api/v1`. Every answer carries a
 * Content-Security-Policy that allows no script, `nosniff`, `no-referrer` and `no-store`; requests
 * are counted per client address, as the public bootstrap's are.
 */
export function publicShareRoutes(deps: ServerDeps, mount: "root" | "api") {
  const core = deps.core;
  const where = mount === "root"
    ? "At the server's root; the same page answers under `/api/v1`."
    : "Also at the server's root, `/s/{token}`, the address share links carry.";
  const detail = (summary: string, description: string, responses: Responses) => ({
    tags: ["sharing (public)"],
    summary,
    description: `${description} ${where}`,
    security: [],
    responses,
  });

  const guard = async (
    request: Request,
    server: { requestIP(r: Request): { address: string } | null } | null,
    set: { headers: Record<string, unknown> },
  ) => {
    Object.assign(set.headers, SHARE_SECURITY_HEADERS);
    const limits = deps.rateLimits;
    await enforceRateLimit(limits, deps.logger, `ip:${clientAddress(request, server, limits.trustProxy)}:share`, limits.perIp, set.headers);
  };
  const isNotFound = (e: unknown) => e instanceof AppError && e.code === "NOT_FOUND";

  return new Elysia({ name: `public-shares:${mount}` })
    .get(
      "/s/:token",
      async ({ params, request, server, set }) => {
        await guard(request, server, set);
        set.headers["content-type"] = "text/html; charset=utf-8";
        try {
          return renderSharePage(await readSharedTopic(core, params.token), params.token);
        } catch (e) {
          if (!isNotFound(e)) throw e;
          set.status = 404;
          return renderShareNotFound(requestFacts(request, set).id);
        }
      },
      {
        params: TokenParams,
        detail: detail(
          "Public page of a shared topic",
          "No authentication. An HTML page of the topic as it is now: title, trust verdict (reviewed, proposed, draft) with stale and drifted flags, tags, the Markdown body rendered (raw HTML in the content is shown as text; `javascript:` and other unsafe links are not links; the page allows no script), and when it was last updated. Nothing else of the workspace. An unknown, revoked or malformed token, or the link of an archived or deleted topic, is a 404 HTML page.",
          {
            200: html("The topic's page."),
            404: html("No such link: unknown, revoked or malformed token, or the topic is archived or deleted."),
            429: RATE_LIMITED,
          },
        ),
      },
    )
    .get(
      "/s/:token/raw",
      async ({ params, request, server, set }) => {
        await guard(request, server, set);
        try {
          const topic = await readSharedTopic(core, params.token);
          set.headers["content-type"] = "text/markdown; charset=utf-8";
          return topic.body;
        } catch (e) {
          if (!isNotFound(e)) throw e;
          // The JSON envelope, with the page's headers (no-store and the rest) kept on it.
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(set.headers)) if (k !== "content-type" && v !== undefined) headers[k] = String(v);
          return errorResponse(e as AppError, requestFacts(request, set).id, headers);
        }
      },
      {
        params: TokenParams,
        detail: detail(
          "Markdown of a shared topic",
          "No authentication. The topic's body as stored, `text/markdown; charset=utf-8`. The same tokens open it as the page; a token that opens nothing is a 404 with the JSON error envelope (`NOT_FOUND`).",
          {
            200: { description: "The body, as stored.", content: { "text/markdown": { schema: { type: "string" } } } },
            404: envelope("No such link (`NOT_FOUND`): unknown, revoked or malformed token, or the topic is archived or deleted."),
            429: RATE_LIMITED,
          },
        ),
      },
    );
}
