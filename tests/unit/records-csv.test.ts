import { describe, expect, test } from "bun:test";
import { cellText, csvLine, declaredCell, openCell, quoteCell, uncellText } from "../../core/collections/csv-cells.ts";
import { csvColumns, csvIntent, ndjsonIntent } from "../../core/collections/record-import-rows.ts";
import type { RecordSchema } from "../../core/collections/record-schema.ts";

describe("csv-cells", () => {
  test("cellText() prefixes a text starting with a formula character with ', after any apostrophes; numbers, booleans, JSON stay as they are", () => {
    for (const t of ["=1+1", "+A1", "-A1", "@SUM(A1)", "\tx", "\rx", "'=x", "''+x"]) expect(cellText(t)).toBe(`'${t}`);
    for (const t of ["plain", "'plain", "a=b", "", " =x"]) expect(cellText(t)).toBe(t);
    expect(cellText(-5)).toBe("-5");
    expect(cellText(1.5e-7)).toBe("1.5e-7");
    expect(cellText(true)).toBe("true");
    expect(cellText(null)).toBe("");
    expect(cellText(["a", 1])).toBe('["a",1]');
    expect(cellText({ k: "=x" })).toBe('{"k":"=x"}');
  });

  test("uncellText() takes back exactly the prefix cellText() added", () => {
    for (const t of ["=1+1", "-2", "@x", "\tx", "\rx", "'=x", "''+x", "plain", "'plain", "'", ""]) expect(uncellText(cellText(t))).toBe(t);
  });

  test("quoteCell() and csvLine() follow RFC 4180: quotes around commas, quotes, CR and LF; quotes doubled; CRLF after the record", () => {
    expect(quoteCell('a "b", c')).toBe('"a ""b"", c"');
    expect(quoteCell("two\nlines")).toBe('"two\nlines"');
    expect(quoteCell("plain")).toBe("plain");
    expect(csvLine(["=x", 2, null, ["a,b"]])).toBe(`'=x,2,,"[""a,b""]"\r\n`);
  });

  test("declaredCell() converts by type and says why it cannot; empty is no value", () => {
    expect(declaredCell({ type: "integer" }, "-12")).toEqual({ value: -12 });
    expect(declaredCell({ type: "integer" }, "1.5")).toEqual({ problem: "must be an integer" });
    expect(declaredCell({ type: "integer" }, "99999999999999999999")).toEqual({ problem: "must be an integer" });
    expect(declaredCell({ type: "number" }, "1e3")).toEqual({ value: 1000 });
    expect(declaredCell({ type: "number" }, "1,5")).toEqual({ problem: "must be a number" });
    expect(declaredCell({ type: "boolean" }, "TRUE")).toEqual({ value: true });
    expect(declaredCell({ type: "boolean" }, "yes")).toEqual({ problem: "must be true or false" });
    expect(declaredCell({ type: "list", items: { type: "string" } }, '["a"]')).toEqual({ value: ["a"] });
    expect(declaredCell({ type: "list", items: { type: "string" } }, "a;b")).toEqual({ problem: 'must be a JSON list, e.g. ["a","b"]' });
    expect(declaredCell({ type: "date" }, "2026-02-30")).toEqual({ value: "2026-02-30" }); // the record's validation refuses it
    expect(declaredCell({ type: "string" }, "")).toEqual({ value: undefined });
  });

  test("openCell() keeps text, or with infer reads numbers, then true/false, then JSON lists and objects", () => {
    expect(openCell("12", false)).toEqual({ value: "12" });
    expect(openCell("12", true)).toEqual({ value: 12 });
    expect(openCell("false", true)).toEqual({ value: false });
    expect(openCell('{"a":1}', true)).toEqual({ value: { a: 1 } });
    expect(openCell("[oops", true)).toEqual({ value: "[oops" });
    expect(openCell("0x10", true)).toEqual({ value: "0x10" });
  });
});

describe("record-import-rows", () => {
  const schema: RecordSchema = { fields: { status: { type: "string" }, n: { type: "integer", required: true } }, stages: ["lead", "won"] };

  test("csvColumns() reads record columns, fields (fields.<name> for one named like a column) and reports unknown and repeated ones", () => {
    const cols = csvColumns(schema, ["id", "status", "fields.status", " n ", "expected_version", "version", "nope", "Bad Name"], 1);
    expect(cols.columns.map((c) => ("name" in c ? `field:${c.name}` : c.kind))).toEqual([
      "id",
      "status",
      "field:status",
      "field:n",
      "version",
      "version",
      "field:nope",
      "field:Bad Name",
    ]);
    expect(cols.problems.map((p) => [p.column, p.code])).toEqual([
      ["version", "DUPLICATE_COLUMN"],
      ["nope", "UNKNOWN_FIELD"],
      ["Bad Name", "UNKNOWN_COLUMN"],
    ]);
  });

  test("csvIntent() converts cells, gives an empty cell no value (null), and skips blank lines", () => {
    const cols = csvColumns(schema, ["status", "fields.status", "n", "entity_id"], 1);
    const row = csvIntent(schema, cols, 2, ["won", "'=x", "7", ""], false);
    expect(row).toMatchObject({ line: 2, status: "won", entityId: null, fields: { status: "=x", n: 7 }, problems: [], empty: false });
    expect(csvIntent(schema, cols, 3, ["", "", "", ""], false).empty).toBe(true);
    expect(csvIntent(schema, cols, 4, [""], false).empty).toBe(true);
    expect(csvIntent(schema, cols, 5, ["won", "x"], false).problems).toEqual([
      { line: 5, column: null, code: "MALFORMED_ROW", message: "has 2 cells where the header has 4" },
    ]);
  });

  test("ndjsonIntent() reads an exported line back and refuses unknown keys", () => {
    const id = "01900000-0000-7000-8000-000000000000";
    const row = ndjsonIntent(schema, 1, {
      id,
      status: "lead",
      entity_id: null,
      version: 3,
      updated_at: "2026-01-01T00:00:00.000Z",
      fields: { n: 1 },
    });
    expect(row).toMatchObject({ id, status: "lead", entityId: null, version: 3, fields: { n: 1 }, problems: [] });
    expect(ndjsonIntent(schema, 2, { colour: "red", fields: { x: 1 } }).problems.map((p) => [p.column, p.code])).toEqual([
      ["colour", "UNKNOWN_COLUMN"],
      ["fields.x", "UNKNOWN_FIELD"],
    ]);
    expect(ndjsonIntent(schema, 3, [1]).problems[0]!.code).toBe("MALFORMED_ROW");
  });
});
