import type { RecordFields } from "./record-validation.ts";

/** How much of a record's text `retrieve?query=` searches. */
export const MAX_SEARCH_TEXT = 20_000;

/**
 * The text a record is found by: its string values (list items included), lower-cased, one per
 * line. Stored beside the record, so each store matches words as plain substrings of one column.
 */
export function recordSearchText(fields: RecordFields): string {
  const parts: string[] = [];
  for (const v of Object.values(fields)) {
    if (typeof v === "string") parts.push(v);
    else if (Array.isArray(v)) { for (const x of v) if (typeof x === "string") parts.push(x); }
  }
  return parts.join("\n").toLowerCase().slice(0, MAX_SEARCH_TEXT);
}

/** The words of a `query`: lower-cased, split on whitespace, distinct, at most 10. */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter((w) => w.length > 0))].slice(0, 10);
}
