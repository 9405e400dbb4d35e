import { validationFailed } from "./errors.ts";

/**
 * Query-string parameters arrive as strings; these give them meaning, and refuse what has none
 * with a 400 naming the parameter (`query.<name>`).
 */
export const badQuery = (name: string, message: string) => validationFailed(`Invalid ${name}: ${message}`, [{ path: `query.${name}`, message }]);

export function parseBool(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badQuery(name, "expected true or false");
}

export function parseEnum<T extends string>(name: string, raw: string | undefined, values: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw badQuery(name, `expected one of ${values.join(", ")}`);
}

/** An ISO 8601 instant, normalised to UTC (`…Z`), as stored timestamps are. */
export function parseTimestamp(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badQuery(name, "expected an ISO 8601 timestamp");
  return new Date(ms).toISOString();
}
