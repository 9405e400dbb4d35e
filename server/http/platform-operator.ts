import { sha256 } from "@oslojs/crypto/sha2";
import { assertCanGrantCredits } from "../../core/credits/mod.ts";
import { constantTimeEqual, forbidden, notFound, unauthenticated } from "../../core/kernel/mod.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";
import type { ServerDeps } from "../deps.ts";
import { optionalCaller, optionalPrincipal, requireWorkspace, type SessionContext } from "./authenticate.ts";
import { credentialOf } from "./credentials.ts";
import { enforceRateLimit } from "./rate-limit.ts";

const digest = (s: string) => sha256(new TextEncoder().encode(s));

/** Whether `raw` is the configured operator key; constant-time (digests of equal length compared). */
export function isPlatformKey(configured: string | null | undefined, raw: string): boolean {
  if (!configured) return false;
  return constantTimeEqual(digest(configured), digest(raw));
}

/**
 * Whether a request carries the platform operator key (then rate-limited as the operator); no
 * credential at all is 401. Anything else is for the caller to check as a workspace credential.
 */
async function isOperatorRequest(
  deps: ServerDeps,
  headers: Headers,
  answerHeaders: Parameters<typeof enforceRateLimit>[4],
): Promise<boolean> {
  const raw = credentialOf(headers)?.value;
  if (!raw) {
    throw unauthenticated("Missing credentials: send the platform operator key as Authorization: Bearer <key> or in the x-api-key header");
  }
  if (!isPlatformKey(deps.config.platformAdminKey, raw)) return false;
  const limits = deps.rateLimits;
  await enforceRateLimit(limits, deps.logger, "platform-operator", limits.perKey, answerHeaders);
  return true;
}

/**
 * Authenticates an operation of the platform operator on one workspace (the credit grant). The
 * operator key reaches it (404 if the workspace does not exist); any workspace credential is
 * checked as everywhere (401 invalid, 404 of another workspace) and then refused with 403. With no
 * operator key configured, that is everyone's answer.
 */
export async function requirePlatformOperator(
  deps: ServerDeps,
  headers: Headers,
  slug: string,
  answerHeaders: Parameters<typeof enforceRateLimit>[4],
): Promise<Workspace> {
  if (await isOperatorRequest(deps, headers, answerHeaders)) {
    const workspace = await deps.core.stores.workspaces.getBySlug(slug);
    if (!workspace) throw notFound("Workspace");
    return workspace;
  }
  const { principal } = await requireWorkspace(deps, headers, slug);
  const limits = deps.rateLimits;
  await enforceRateLimit(limits, deps.logger, `key:${principal.credentialId}`, limits.perKey, answerHeaders);
  assertCanGrantCredits(principal);
  throw new Error("unreachable: a workspace principal is never the platform operator");
}

/**
 * Authenticates a `/platform/**` request: the operator key passes; no credential or one that is
 * none (a wrong key) is 401; any valid workspace credential is 403, and with no operator key
 * configured that is every workspace credential's answer.
 */
export async function requirePlatformAdmin(
  deps: ServerDeps,
  headers: Headers,
  answerHeaders: Parameters<typeof enforceRateLimit>[4],
): Promise<void> {
  if (await isOperatorRequest(deps, headers, answerHeaders)) {
    return;
  }
  const auth = await optionalPrincipal(deps, headers);
  if (!auth) throw unauthenticated("Invalid credentials: not the platform operator key");
  const limits = deps.rateLimits;
  await enforceRateLimit(limits, deps.logger, `key:${auth.principal.credentialId}`, limits.perKey, answerHeaders);
  throw forbidden("Cannot reach the platform administration: only the platform operator key (PLATFORM_ADMIN_KEY) may");
}

/**
 * `POST /workspaces` on a closed server (WORKSPACE_BOOTSTRAP=operator): the operator key passes
 * (rate-limited as the operator); no credential is 401; a workspace credential or a dashboard
 * session is 403, as a refusal of who they are; a credential that is neither (a wrong key) is 401.
 */
export async function requireOperatorBootstrap(deps: ServerDeps, ctx: SessionContext): Promise<void> {
  const raw = credentialOf(ctx.request.headers)?.value;
  if (raw && isPlatformKey(deps.config.platformAdminKey, raw)) {
    await enforceRateLimit(deps.rateLimits, deps.logger, "platform-operator", deps.rateLimits.perKey, ctx.set.headers);
    return;
  }
  const caller = await optionalCaller(deps, ctx);
  if (!caller) {
    throw unauthenticated(
      "Missing credentials: on this server only the platform operator creates workspaces (WORKSPACE_BOOTSTRAP=operator); send its key (PLATFORM_ADMIN_KEY) in the x-api-key header",
    );
  }
  const limits = deps.rateLimits;
  await enforceRateLimit(limits, deps.logger, `key:${caller.principal.credentialId}`, limits.perKey, ctx.set.headers);
  throw forbidden(
    "Cannot create a workspace: on this server only the platform operator key (PLATFORM_ADMIN_KEY) may (WORKSPACE_BOOTSTRAP=operator)",
  );
}
