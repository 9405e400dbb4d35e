import { type Scope, SCOPES } from "./model.ts";

/**
 * OAuth scope strings (RFC 6749 §3.3: space-separated tokens). `work:read` is always granted;
 * `work:write` allows every write; `topics:write` adds topic relations, nothing else.
 */
export const ALWAYS_GRANTED: Scope = "work:read";

export type ScopeParse = { ok: true; scopes: Scope[] } | { ok: false; unknown: string[] };

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * The scopes a request asks for: `requested` when it names any, else the client's registered
 * default, else none; `work:read` added; duplicates dropped; in the order of `SCOPES`. A name
 * outside `SCOPES` makes the whole request fail (`invalid_scope`), never silently dropped.
 */
export function parseScope(requested: string | null | undefined, clientDefault: string | null = null): ScopeParse {
  const raw = requested !== undefined && requested !== null && requested.trim() !== "" ? requested : clientDefault ?? "";
  const names = raw.split(" ").filter((s) => s !== "");
  const unknown = names.filter((n) => !isScope(n));
  if (unknown.length > 0) return { ok: false, unknown: [...new Set(unknown)] };
  return { ok: true, scopes: normalizeScopes([ALWAYS_GRANTED, ...(names as Scope[])]) };
}

/** Distinct scopes in the order of `SCOPES`. */
export function normalizeScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s));
}

/** The `scope` parameter of a token response (RFC 6749 §5.1). */
export function formatScope(scopes: readonly Scope[]): string {
  return normalizeScopes(scopes).join(" ");
}
