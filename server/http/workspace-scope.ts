import { Elysia } from "elysia";
import type { ServerDeps } from "../deps.ts";
import { requireWorkspace } from "./authenticate.ts";
import { enforceRateLimit } from "./rate-limit.ts";

/**
 * The chain every `/workspaces/{slug}/...` controller starts from: authenticate, check the
 * credential belongs to that workspace (else 404), count the request against the key's rate
 * limit, all before the body is validated, so an anonymous caller learns nothing about the shape
 * of an endpoint's input.
 */
export function workspaceScope(deps: ServerDeps, name: string, opts: { headers?: (url: URL) => Record<string, string> } = {}) {
  return new Elysia({ name: `workspace-scope:${name}`, prefix: "/workspaces/:slug" }).derive(
    async ({ request, params, set }) => {
      // Headers every answer of the controller carries, errors included (a deprecated alias's).
      if (opts.headers) Object.assign(set.headers, opts.headers(new URL(request.url)));
      const { principal, workspace } = await requireWorkspace(deps, request.headers, (params as { slug: string }).slug, {
        request,
        set,
      });
      const limits = deps.rateLimits;
      const counting = enforceRateLimit(limits, deps.logger, `key:${principal.credentialId}`, limits.perKey, set.headers);
      if (counting) await counting;
      return { principal, workspace };
    },
  );
}
