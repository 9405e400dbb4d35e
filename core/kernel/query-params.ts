import { validationFailed } from "./errors.ts";

/**
 * Query-string parameters arrive as strings; these give them meaning, and refuse what has none
 * with a 400 naming the parameter (`query.<name>`). An edge that already typed a value by its
 * declared schema (the HTTP server does) passes the number or boolean instead: both are taken.
 */
export type QueryInt = string | number;
export type QueryBool = string | boolean;

export const badQuery = (name: string, message: string) =>
  validationFailed(`Invalid ${name}: ${message}`, [{ path: `query.${name}`, message }]);

export function parseBool(name: string, raw: QueryBool | undefined): boolean | undefined {
  if (raw === undefined || typeof raw === "boolean") return raw;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badQuery(name, "expected true or false");
}

export function parseEnum<T extends string>(name: string, raw: string | undefined, values: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw badQuery(name, `expected one of ${values.join(", ")}`);
}

/**
 * An ISO 8601 instant, normalised to UTC (`…Z`), as stored timestamps are. Every RFC 3339
 * date-time is one (the API documents the format): a lower-case `t`/`z` and a leap second
 * (`:60`, read as the minute's last millisecond) are taken too, which `Date.parse` alone refuses.
 */
export function parseTimestamp(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const text = raw.toUpperCase();
  const leap = /^(.*T\d\d:\d\d:)60(\.\d+)?(.*)$/.exec(text);
  const ms = leap ? Date.parse(`${leap[1]}59.999${leap[3]}`) : Date.parse(text);
  if (Number.isNaN(ms)) throw badQuery(name, "expected an ISO 8601 timestamp");
  return new Date(ms).toISOString();
}
