import { AppError } from "../kernel/errors.ts";
import type { Principal } from "./principal.ts";

/**
 * OAuth-style scopes, the one vocabulary every credential speaks (docs/decisions/027-mcp-and-bearer-credentials.md):
 * - `work:read`: read the workspace's content; every credential holds it;
 * - `work:write`: every write (create, edit, govern, delete, run, share …);
 * - `topics:write`: adding a typed relation between topics, and nothing else.
 * An API key (and, later, a dashboard session) holds all three: it acts with the member's full
 * role, and the role decides. An OAuth token holds what its grant named. Scopes narrow a role;
 * they never widen one (an owner/admin operation still needs an owner or admin).
 */
export const SCOPES = ["work:read", "work:write", "topics:write"] as const;
export type Scope = (typeof SCOPES)[number];

/** What an API key carries: every scope. */
export const API_KEY_SCOPES: readonly Scope[] = SCOPES;

/** The kinds of operation a scope decision distinguishes. */
export type ScopedOperation = "read" | "write" | "relate";

/**
 * The scopes an operation needs, `work:read` always: a read needs only it; a write, `work:write`;
 * adding a topic relation, `topics:write` (not `work:write`: an agent may link what it reads).
 */
export function scopesFor(operation: ScopedOperation): Scope[] {
  if (operation === "write") return ["work:read", "work:write"];
  if (operation === "relate") return ["work:read", "topics:write"];
  return ["work:read"];
}

/** The scopes of `operation` the principal lacks; empty when it may. */
export function missingScopes(p: Pick<Principal, "scopes">, operation: ScopedOperation): Scope[] {
  return scopesFor(operation).filter((s) => !p.scopes.includes(s));
}

export function hasScopesFor(p: Pick<Principal, "scopes">, operation: ScopedOperation): boolean {
  return missingScopes(p, operation).length === 0;
}

/**
 * The refusal of an operation for a missing scope: 403 `FORBIDDEN`, with `required_scope` (the
 * operation's scopes, space-separated as OAuth writes them), which the server also states in its
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` challenge.
 */
export function insufficientScope(action: string, operation: ScopedOperation): AppError {
  const needed = scopesFor(operation);
  const missing = needed.filter((s) => s !== "work:read");
  return new AppError("FORBIDDEN", `Cannot ${action}: scope ${missing.join(" ") || "work:read"} is required`, [], {
    required_scope: needed.join(" "),
  });
}

export function assertScopesFor(p: Pick<Principal, "scopes">, operation: ScopedOperation, action: string): void {
  if (!hasScopesFor(p, operation)) throw insufficientScope(action, operation);
}
