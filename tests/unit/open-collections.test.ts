import { describe, expect, test } from "bun:test";
import { collectionProblems } from "../../core/collections/collection-rules.ts";
import { aggregateInMemory, compileAggregate } from "../../core/collections/record-aggregate.ts";
import { compareValues, compileFilter, matches } from "../../core/collections/record-filter.ts";
import { acceptsUndeclared, MAX_VALUE_DEPTH, type RecordSchema } from "../../core/collections/record-schema.ts";
import { compareRecords, compileSort } from "../../core/collections/record-sort.ts";
import { patchRecordFields, validateRecordFields } from "../../core/collections/record-validation.ts";
import { inferShape, MAX_SHAPE_FIELDS, newShapeTally, tallyRecord } from "../../core/collections/shape-inference.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import type { CollectionRecord } from "../../core/collections/model.ts";

const open: RecordSchema = { fields: {}, stages: ["new", "done"] };
const mixed: RecordSchema = { fields: { amount: { type: "number" } }, stages: ["new"], additional_fields: true };
const strict: RecordSchema = { fields: { amount: { type: "number" } }, stages: ["new"] };

const rec = (id: string, fields: Record<string, unknown>) =>
  ({ id, fields, status: "new", entity_id: null, drifted: false, created_at: "", updated_at: "" }) as unknown as CollectionRecord;

describe("acceptsUndeclared()", () => {
  test("no declared fields is open whatever additional_fields says; declared fields need the flag", () => {
    expect(acceptsUndeclared(open)).toBe(true);
    expect(acceptsUndeclared(mixed)).toBe(true);
    expect(acceptsUndeclared(strict)).toBe(false);
  });
});

describe("validateRecordFields() on undeclared fields", () => {
  test("an open collection takes any JSON value under a field name, nulls dropped", () => {
    const fields = { company: "Initech", amount: 5000, tags: ["a", 1, null], meta: { "x y": [true, { deep: 1 }] }, gone: null };
    const v = validateRecordFields(open, fields);
    expect(v.errors).toEqual([]);
    expect(v.fields).toEqual({ company: "Initech", amount: 5000, tags: ["a", 1, null], meta: { "x y": [true, { deep: 1 }] } });
  });

  test("names outside the field-name pattern, inherited names and bad nested values are refused, each at its path", () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_VALUE_DEPTH; i++) deep = [{ d: deep }].slice(0, 1)[0];
    const v = validateRecordFields(open, { Bad: 1, ok: { $set: 1 }, dots: { "a.b": 1 }, lists: [[1]], deep: { d: deep } });
    expect(v.errors.map((e) => e.path).sort()).toEqual([
      "/fields/Bad",
      "/fields/deep/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d",
      "/fields/dots/a.b",
      "/fields/lists/0",
      "/fields/ok/$set",
    ]);
    // `constructor` is a field name like any other, not Object.prototype's.
    expect(validateRecordFields(open, { constructor: "x" }).fields).toEqual({ constructor: "x" });
  });

  test("declared fields stay validated beside additional ones; a strict schema refuses undeclared names", () => {
    expect(validateRecordFields(mixed, { amount: "lots", note: "hi" }).errors).toEqual([{
      path: "/fields/amount",
      message: "must be a number",
    }]);
    expect(validateRecordFields(strict, { note: "hi" }).errors).toEqual([{
      path: "/fields/note",
      message: "is not a field of this collection's record_schema",
    }]);
  });

  test("the record size bound holds for undeclared values", () => {
    const v = validateRecordFields(open, { a: "x".repeat(200_000), b: "y".repeat(100_000) });
    expect(v.errors).toEqual([{ path: "/fields", message: "is larger than 262144 bytes" }]);
  });

  test("patchRecordFields() merges undeclared values, null removing them", () => {
    const v = patchRecordFields(open, { a: 1, b: { c: 2 } }, { b: null, d: [1] });
    expect(v.fields).toEqual({ a: 1, d: [1] });
  });
});

describe("the order of undeclared values", () => {
  test("compareValues() ranks numbers, then strings, then false and true", () => {
    const values = [true, "b", 10, false, "a", -1, "10"];
    expect([...values].sort(compareValues)).toEqual([-1, 10, "10", "a", "b", false, true]);
  });

  test("a sort on an undeclared field puts arrays, objects and missing values last, in both directions, by id", () => {
    const rs = [
      rec("01", { v: "x" }),
      rec("02", { v: [1] }),
      rec("03", { v: 2 }),
      rec("04", {}),
      rec("05", { v: true }),
      rec("06", { v: { a: 1 } }),
    ];
    const ids = (dir: "asc" | "desc") =>
      [...rs].sort((a, b) => compareRecords(a, b, compileSort(open, { field: "fields.v", dir }))).map((r) => r.id);
    expect(ids("asc")).toEqual(["03", "01", "05", "02", "04", "06"]);
    expect(ids("desc")).toEqual(["05", "01", "03", "06", "04", "02"]);
  });
});

describe("compileFilter() and matches() on undeclared fields", () => {
  const m = (filter: Parameters<typeof compileFilter>[1], fields: Record<string, unknown>) =>
    matches(rec("01", fields) as never, compileFilter(open, filter));

  test("a condition matches values of its own value's type only, without an error for the others", () => {
    expect(m({ field: "fields.v", op: "eq", value: 5 }, { v: 5 })).toBe(true);
    expect(m({ field: "fields.v", op: "eq", value: 5 }, { v: "5" })).toBe(false);
    expect(m({ field: "fields.v", op: "gt", value: 1 }, { v: "9" })).toBe(false);
    expect(m({ field: "fields.v", op: "lt", value: "b" }, { v: "a" })).toBe(true);
    expect(m({ field: "fields.v", op: "ne", value: 5 }, { v: [5] })).toBe(true);
    expect(m({ field: "fields.v", op: "in", value: [5, "x", false] }, { v: false })).toBe(true);
  });

  test("contains finds substrings of strings, any case, and equal elements of lists", () => {
    expect(m({ field: "fields.v", op: "contains", value: "NIT" }, { v: "Initech" })).toBe(true);
    expect(m({ field: "fields.v", op: "contains", value: "nit" }, { v: ["Initech"] })).toBe(false);
    expect(m({ field: "fields.v", op: "contains", value: 5 }, { v: ["5", 5] })).toBe(true);
    expect(m({ field: "fields.v", op: "contains", value: 5 }, { v: 5 })).toBe(false);
  });

  test("operators that compare nothing are refused on the value, not the field", () => {
    try {
      compileFilter(open, { and: [{ field: "fields.v", op: "gt", value: true }, { field: "fields.Bad", op: "eq", value: 1 }] });
      throw new Error("expected a validation error");
    } catch (e) {
      expect(isAppError(e) && e.details.map((d) => d.path)).toEqual(["/filter/and/0/value", "/filter/and/1/field"]);
    }
  });
});

test("aggregateInMemory() groups an undeclared field by scalar value; sum takes numbers, min/max numbers before strings", () => {
  const rs = [
    rec("1", { v: 5, x: 2 }),
    rec("2", { v: "5", x: "b" }),
    rec("3", { v: 5, x: "a" }),
    rec("4", { v: [5], x: true }),
    rec("5", { x: 1 }),
  ];
  const { spec } = compileAggregate(open, {
    group_by: ["fields.v"],
    metrics: [{ fn: "sum", field: "fields.x" }, { fn: "min", field: "fields.x" }, { fn: "max", field: "fields.x" }],
  });
  expect(aggregateInMemory(rs, spec)).toEqual([
    { key: [5], count: 2, values: [2, 2, "a"] },
    { key: [null], count: 2, values: [1, 1, 1] },
    { key: ["5"], count: 1, values: [0, "b", "b"] },
  ]);
});

test("collectionProblems() lets views and presentation name undeclared fields of an open collection", () => {
  const c = {
    record_schema: open,
    views: [{ name: "b", kind: "board", group_by: "fields.stage2", columns: ["fields.any_name"] }],
    presentation: { title_field: "company" },
    connector_mapping: null,
  };
  expect(collectionProblems(c)).toEqual([]);
  expect(collectionProblems({ ...c, record_schema: strict }).map((p) => p.path)).toEqual([
    "/views/0/columns/0",
    "/views/0/group_by",
    "/presentation/title_field",
  ]);
});

describe("inferShape()", () => {
  test("counts JSON types per field and suggests the most specific declaration every value fits", () => {
    const tally = newShapeTally();
    const rows = [
      {
        company: "Initech",
        amount: 5000,
        closes: "2026-03-01",
        site: "https://initech.example",
        won: true,
        tags: ["a", "b"],
        meta: { a: 1 },
        mixed: 1,
      },
      {
        company: "Globex",
        amount: 12.5,
        closes: "2026-02-30",
        site: "https://globex.example",
        won: false,
        tags: [],
        mixed: "one",
        owner: "ana@example.com",
      },
      { company: "Umbrella", amount: 7, closes: "2026-04-01", tags: ["c"], seen: "2026-04-01T10:00:00+02:00" },
    ];
    for (const r of rows) tallyRecord(tally, open, r);
    const shape = inferShape(tally, open);
    const by = Object.fromEntries(shape.fields.map((f) => [f.name, f]));
    expect(by.amount).toEqual({ name: "amount", records: 3, types: { number: 3 }, suggested: { type: "number" } });
    expect(by.mixed!.types).toEqual({ number: 1, string: 1 });
    expect(by.mixed!.suggested).toBeNull();
    expect(by.meta!.suggested).toBeNull();
    // 2026-02-30 is no calendar date: text, not date.
    expect(by.closes!.suggested).toEqual({ type: "string" });
    expect(by.site!.suggested).toEqual({ type: "url" });
    expect(by.won!.suggested).toEqual({ type: "boolean" });
    expect(by.tags!.suggested).toEqual({ type: "list", items: { type: "string" } });
    expect(by.owner!.suggested).toEqual({ type: "email" });
    expect(by.seen!.suggested).toEqual({ type: "datetime" });
    expect(shape.suggested_record_schema.additional_fields).toBe(true);
    expect(shape.suggested_record_schema.stages).toEqual(open.stages);
    // The suggestion accepts every record it was inferred from.
    for (const r of rows) expect(validateRecordFields(shape.suggested_record_schema, r).errors).toEqual([]);
  });

  test("integers suggest integer; declared fields are kept and not tallied", () => {
    const tally = newShapeTally();
    for (const r of [{ amount: 1, n: 1 }, { amount: 2, n: 3 }]) tallyRecord(tally, mixed, r);
    const shape = inferShape(tally, mixed);
    expect(shape.fields.map((f) => [f.name, f.suggested])).toEqual([["n", { type: "integer" }]]);
    expect(shape.suggested_record_schema.fields).toEqual({ amount: { type: "number" }, n: { type: "integer" } });
  });

  test("names beyond the tally bound are counted, not described", () => {
    const tally = newShapeTally();
    tallyRecord(tally, open, Object.fromEntries(Array.from({ length: MAX_SHAPE_FIELDS + 5 }, (_, i) => [`f${i}`, i])));
    const shape = inferShape(tally, open);
    expect(shape.fields.length).toBe(MAX_SHAPE_FIELDS);
    expect(shape.untallied_fields).toBe(5);
  });
});

test("fields named like columns are fields: fields.drifted sorts and fields.created_at groups", () => {
  expect(compileSort(open, { field: "fields.drifted" }).operand?.type).toBe("any");
  expect(compileAggregate(open, { group_by: ["fields.created_at"], metrics: [{ fn: "count" }] }).spec.groupBy[0]?.path).toBe(
    "fields.created_at",
  );
});
