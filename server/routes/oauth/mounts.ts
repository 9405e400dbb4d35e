import { type TSchema, Type } from "@sinclair/typebox";
import { type OAuthMount, oauthMount } from "../../../core/identity/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import { API_PREFIX } from "../../http/api-prefix.ts";
import type { ServerDeps } from "../../deps.ts";
import { csrfGuard } from "../../http/csrf.ts";
import { ErrorEnvelope } from "../../http/error-envelope.ts";
import { identityValue } from "../../http/error-status.ts";
import { publicOrigin } from "../../http/public-origin.ts";
import { clientAddress, enforceRateLimit } from "../../http/rate-limit.ts";
import { strict } from "../../http/schemas.ts";
import { OAuthError } from "./answers.ts";

/** The two mounts' paths (ADR 029): the root issuer's, and each workspace's own. */
export type MountPrefix = "" | "/workspaces/:slug";

/** What every OAuth route shares. */
export interface OAuthContext {
  deps: ServerDeps;
  csrf: ReturnType<typeof csrfGuard>;
  /** The mount a request reached; an unknown workspace is a 404. */
  mountOf(request: Request, slug: string | undefined): Promise<OAuthMount>;
  /** A per-address (and client) budget, never below the given floor, off when the per-IP limit is off. */
  limit(request: Request, server: unknown, set: { headers: Record<string, unknown> }, what: string, floor: number): Promise<void>;
}

export function oauthContext(deps: ServerDeps): OAuthContext {
  return {
    deps,
    csrf: csrfGuard(deps.config.secretKey),
    async mountOf(request, slug) {
      const origin = publicOrigin(request, deps.config.publicUrl, deps.rateLimits.trustProxy);
      return identityValue(await oauthMount(deps.core, { origin, api: `${origin}${API_PREFIX}` }, slug));
    },
    async limit(request, server, set, what, floor) {
      const limits = deps.rateLimits;
      if (!limits.perIp) return;
      const ip = clientAddress(request, server as Parameters<typeof clientAddress>[1], limits.trustProxy);
      const rule = { limit: Math.max(floor, limits.perIp.limit), windowMs: 60_000 };
      await enforceRateLimit(limits, deps.logger, `ip:${ip}:${what}`, rule, set.headers);
    },
  };
}

/** How a mount's routes are declared: its path parameters, its words in summaries, its slug. */
export function mountShape(prefix: MountPrefix) {
  const params = prefix === "" ? undefined : Type.Object({ slug: SlugSchema }, strict);
  return {
    params,
    at: prefix === "" ? "the root issuer" : "the workspace's own issuer",
    slugOf: (p: unknown) => (prefix === "" ? undefined : (p as { slug: string }).slug),
    withParams: <T extends Record<string, TSchema>>(extra: T) =>
      params ? Type.Object({ ...params.properties, ...extra }, strict) : Type.Object(extra, strict),
    /** The RFC routes' 400: the RFC's shape; at a workspace mount a malformed slug is refused, like everywhere, by the envelope. */
    rfcError400: params ? Type.Union([OAuthError, ErrorEnvelope]) : OAuthError,
  };
}
