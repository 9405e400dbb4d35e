import type { AppError } from "../../core/kernel/mod.ts";
import { bearerOf } from "./credentials.ts";
import { PROTECTED_RESOURCE_PATH } from "./public-origin.ts";
import { STATUS_OF } from "./error-status.ts";

/**
 * The `WWW-Authenticate` challenge an error answer carries (RFC 6750 §3, RFC 9728 §5.1), or null:
 * - every 401: `Bearer resource_metadata="{PUBLIC_URL}/.well-known/oauth-protected-resource"`,
 *   with `error="invalid_token"` when a bearer credential was sent and failed, and `scope="…"`
 *   when the refusal names the scopes the operation needs (MCP asks for `work:read`);
 * - a 403 for a missing scope (`required_scope`, core/access/scopes.ts):
 *   `Bearer error="insufficient_scope", scope="…", resource_metadata="…"`, so a client can step up.
 */
export function challengeFor(err: AppError, request: Request, origin: string): string | null {
  const metadata = `resource_metadata="${origin}${PROTECTED_RESOURCE_PATH}"`;
  const scope = typeof err.meta?.required_scope === "string" ? `scope="${err.meta.required_scope}"` : null;
  if (STATUS_OF[err.code] === 401) {
    const bearer = err.code === "UNAUTHENTICATED" ? bearerOf(request.headers) : null;
    const invalid = bearer ? `error="invalid_token"` : null;
    return `Bearer ${[metadata, invalid, scope].filter(Boolean).join(", ")}`;
  }
  if (err.code === "FORBIDDEN" && scope) return `Bearer error="insufficient_scope", ${scope}, ${metadata}`;
  return null;
}
