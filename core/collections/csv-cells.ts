import type { FieldDef } from "./record-schema.ts";

/**
 * Cells of the records CSV (docs/decisions/063-records-csv-and-ndjson.md): a value written as the
 * text of one cell, safe to open in a spreadsheet, and a cell's text read back as a field's value.
 * RFC 4180: cells separated by commas, records by CRLF, a cell holding a comma, a double quote,
 * CR or LF quoted, with its double quotes doubled.
 */

/**
 * What a spreadsheet reads as the start of a formula (OWASP "CSV injection"): `=`, `+`, `-`, `@`,
 * tab, carriage return. A text cell starting with one (after any apostrophes, so that a text that
 * already starts with `'=` reads back as itself) is written with a `'` in front.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The text of a value in one cell, before quoting: empty for none, JSON for lists and objects. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  // A number is never a formula (a spreadsheet reads `-5` as minus five), so it stays a number.
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return FORMULA_START.test(value) ? `'${value}` : value;
  // Lists and objects as JSON text, which starts with `[` or `{`: never a formula.
  return JSON.stringify(value);
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One cell as RFC 4180 writes it. */
export function quoteCell(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record (a line) of values, CRLF-terminated. */
export function csvLine(values: readonly unknown[]): string {
  let out = "";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    out += quoteCell(cellText(values[i]));
  }
  return `${out}\r\n`;
}

/** A header cell, written as given (names are field names, never formulas). */
export function headerLine(names: readonly string[]): string {
  return `${names.map(quoteCell).join(",")}\r\n`;
}

/** The text a cell stood for: the `'` that `cellText` put before a formula's first character taken off. */
export function uncellText(raw: string): string {
  return raw.length > 1 && raw[0] === "'" && FORMULA_START.test(raw.slice(1)) ? raw.slice(1) : raw;
}

/** A cell read as a value: `value` (undefined: the cell was empty, i.e. no value), or why it cannot be one. */
export type CellValue = { value: unknown } | { problem: string };

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOLEAN = /^(?:true|false)$/i;

function number(text: string): number | null {
  if (!NUMBER.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * The value of a declared field from its cell's text (the `'` prefix already taken off): integer
 * and number from their decimal text, boolean from `true`/`false` (any case), a list from its
 * JSON text; every other type (text, date, datetime, enum, url, email, entity) as the text, which
 * the record's validation then checks. An empty cell is no value.
 */
export function declaredCell(def: FieldDef, text: string): CellValue {
  if (text === "") return { value: undefined };
  switch (def.type) {
    case "integer":
      return INTEGER.test(text) && Number.isSafeInteger(Number(text)) ? { value: Number(text) } : { problem: "must be an integer" };
    case "number": {
      const n = number(text);
      return n === null ? { problem: "must be a number" } : { value: n };
    }
    case "boolean":
      return BOOLEAN.test(text) ? { value: text.toLowerCase() === "true" } : { problem: "must be true or false" };
    case "list": {
      const v = json(text);
      return Array.isArray(v) ? { value: v } : { problem: 'must be a JSON list, e.g. ["a","b"]' };
    }
    default:
      return { value: text };
  }
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The value of an undeclared field (an open collection's) from its cell's text: the text itself,
 * or with `infer`, a number, then `true`/`false`, then a JSON list or object (a cell starting with
 * `[` or `{` that parses: what the export writes for one), then the text. Empty: no value.
 */
export function openCell(text: string, infer: boolean): CellValue {
  if (text === "") return { value: undefined };
  if (!infer) return { value: text };
  const n = number(text);
  if (n !== null) return { value: n };
  if (BOOLEAN.test(text)) return { value: text.toLowerCase() === "true" };
  if (text[0] === "[" || text[0] === "{") {
    const v = json(text);
    if (v !== undefined && typeof v === "object" && v !== null) return { value: v };
  }
  return { value: text };
}
