import { validationFailed } from "./errors.ts";
import type { QueryInt } from "./query-params.ts";

/** A page requested by limit + offset. */
export interface OffsetPage {
  limit: number;
  offset: number;
}

export interface OffsetResult<T> {
  items: T[];
  total: number;
  has_more: boolean;
}

export interface LimitRule {
  default: number;
  max: number;
}

/** The documented limit of every offset-paged list unless its route says otherwise. */
export const DEFAULT_LIMIT: LimitRule = { default: 50, max: 200 };
/** Offsets are bounded so no request asks the store to skip an unbounded number of rows. */
export const MAX_OFFSET = 10_000;

/** `limit` and `offset` as a caller gives them (query strings, or numbers already typed). */
export interface OffsetQuery {
  limit?: QueryInt;
  offset?: QueryInt;
}

/**
 * Parses `limit` and `offset` query strings. Over the maximum is a 400, never a silent clamp.
 */
export function parseOffsetPage(
  query: OffsetQuery,
  rule: LimitRule = DEFAULT_LIMIT,
): OffsetPage {
  const limit = parseBoundedInt("limit", query.limit, 1, rule.max) ?? rule.default;
  const offset = parseBoundedInt("offset", query.offset, 0, MAX_OFFSET) ?? 0;
  return { limit, offset };
}

export function parseBoundedInt(name: string, raw: QueryInt | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "number" ? !Number.isSafeInteger(raw) : !/^\d{1,9}$/.test(raw)) {
    throw validationFailed(`Invalid ${name}: expected an integer`, [{ path: `query.${name}`, message: "expected an integer" }]);
  }
  const n = Number(raw);
  if (n < min || n > max) {
    throw validationFailed(`Invalid ${name}: must be between ${min} and ${max}`, [
      { path: `query.${name}`, message: `must be between ${min} and ${max}` },
    ]);
  }
  return n;
}

export function toOffsetResult<T>(items: T[], total: number, page: OffsetPage): OffsetResult<T> {
  return { items, total, has_more: page.offset + items.length < total };
}
