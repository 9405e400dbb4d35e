import { describe, expect, test } from "bun:test";
import { collectionProblems } from "../../core/collections/collection-rules.ts";
import { looseKey, normalizeDedupKey } from "../../core/collections/entity-key.ts";
import { mergeEntity } from "../../core/collections/entities.ts";
import type { Entity } from "../../core/collections/model.ts";
import { compareText, compileFilter, matches } from "../../core/collections/record-filter.ts";
import { diffRecords } from "../../core/collections/record-diff.ts";
import { type RecordSchema, recordSchemaOf } from "../../core/collections/record-schema.ts";
import { patchRecordFields, stageProblem, validateRecordFields } from "../../core/collections/record-validation.ts";
import { trimToBytes } from "../../core/collections/views.ts";
import { isAppError } from "../../core/kernel/errors.ts";

const schema: RecordSchema = {
  fields: {
    name: { type: "string", required: true, max_length: 10, pattern: "[A-Z].*" },
    n: { type: "integer", min: 0, max: 5 },
    when: { type: "datetime" },
    day: { type: "date", min: "2026-01-01" },
    tier: { type: "enum", values: ["a", "b"] },
    tags: { type: "list", items: { type: "string", max_length: 3 }, max_items: 2 },
    ok: { type: "boolean" },
  },
  stages: ["new", "done"],
};

describe("validateRecordFields()", () => {
  test("reports every field error at once, each under its own path", () => {
    const v = validateRecordFields(schema, {
      n: 9,
      when: "yesterday",
      day: "2025-12-31",
      tier: "c",
      tags: ["abcd", 1, "x"],
      ok: "yes",
      extra: 1,
    });
    expect(v.errors.map((e) => e.path).sort()).toEqual([
      "/fields/day",
      "/fields/extra",
      "/fields/n",
      "/fields/name",
      "/fields/ok",
      "/fields/tags",
      "/fields/tier",
      "/fields/when",
    ]);
  });

  test("checks list items one by one when the list's length is fine", () => {
    const v = validateRecordFields(schema, { name: "Ab", tags: ["abcd", 1] });
    expect(v.errors).toEqual([
      { path: "/fields/tags/0", message: "must be at most 3 characters" },
      { path: "/fields/tags/1", message: "must be a string" },
    ]);
  });

  test("normalises datetimes to UTC and drops nulls", () => {
    const v = validateRecordFields(schema, { name: "Ab", when: "2026-03-01T10:00:00+02:00", ok: null });
    expect(v.errors).toEqual([]);
    expect(v.fields).toEqual({ name: "Ab", when: "2026-03-01T08:00:00.000Z" });
  });

  test("refuses impossible calendar dates and patterns that do not match the whole value", () => {
    expect(validateRecordFields(schema, { name: "Ab", day: "2026-02-30" }).errors).toEqual([{
      path: "/fields/day",
      message: "must be a date (YYYY-MM-DD)",
    }]);
    expect(validateRecordFields(schema, { name: "aB" }).errors[0]?.path).toBe("/fields/name");
  });
});

describe("patchRecordFields()", () => {
  test("merges at the first level, null removes, a required field removed is an error", () => {
    const merged = patchRecordFields(schema, { name: "Ab", n: 1 }, { n: 2, tier: "a" });
    expect(merged.fields).toEqual({ name: "Ab", n: 2, tier: "a" });
    expect(patchRecordFields(schema, { name: "Ab" }, { name: null }).errors).toEqual([{ path: "/fields/name", message: "is required" }]);
  });

  test("keeps a value the schema no longer has, untouched by the patch", () => {
    expect(patchRecordFields(schema, { name: "Ab", legacy: 1 }, { n: 1 })).toMatchObject({
      errors: [],
      fields: { name: "Ab", n: 1, legacy: 1 },
    });
  });
});

test("stageProblem() names the stages when a status is not one of them", () => {
  expect(stageProblem(schema, "done")).toBeNull();
  expect(stageProblem(schema, "closed")).toEqual({ path: "/status", message: "must be one of the collection's stages: new, done" });
});

test("recordSchemaOf() gives each archetype its default stages", () => {
  expect(recordSchemaOf("pipeline", undefined).stages[0]).toBe("lead");
  expect(recordSchemaOf("content", { fields: {} }).stages).toContain("published");
  expect(recordSchemaOf("analysis", { stages: ["x"] }).stages).toEqual(["x"]);
});

describe("compileFilter()", () => {
  test("types operators by the schema and reports every wrong condition", () => {
    try {
      compileFilter(schema, {
        and: [{ field: "fields.n", op: "contains", value: "1" }, { field: "fields.ok", op: "gt", value: true }, {
          field: "nope",
          op: "eq",
          value: 1,
        }],
      });
      throw new Error("expected a failure");
    } catch (e) {
      expect(isAppError(e) && e.details.map((d) => d.path)).toEqual(["/filter/and/0/value", "/filter/and/1/value", "/filter/and/2/field"]);
    }
  });

  test("compares datetimes as UTC instants whatever offset the value carries", () => {
    const f = compileFilter(schema, { field: "fields.when", op: "gte", value: "2026-03-01T10:00:00+02:00" });
    expect(matches({ fields: { when: "2026-03-01T08:00:00.000Z" } }, f)).toBe(true);
    expect(matches({ fields: { when: "2026-03-01T07:59:59.000Z" } }, f)).toBe(false);
  });

  test("ne and nin match records without a value; comparisons never match another type", () => {
    const ne = compileFilter(schema, { field: "fields.n", op: "ne", value: 1 });
    expect(matches({ fields: {} }, ne)).toBe(true);
    const gt = compileFilter(schema, { field: "fields.n", op: "gt", value: 0 });
    expect(matches({ fields: { n: "5" } }, gt)).toBe(false);
  });
});

test("compareText() orders by code point: a character above U+FFFF after U+FFFF", () => {
  expect(compareText("\u{1F600}", "\uFFFF")).toBeGreaterThan(0);
  expect("\u{1F600}" < "\uFFFF").toBe(true); // what JavaScript's own comparison says
  expect(compareText("a", "b")).toBeLessThan(0);
  expect(compareText("ab", "a")).toBeGreaterThan(0);
});

test("diffRecords() lists every changed value with before and after, absent as null", () => {
  const base = {
    id: "r",
    workspace_id: "w",
    collection_id: "c",
    field_meta: {},
    entity_id: null,
    drifted: false,
    search_text: "",
    created_by: null,
    updated_by: null,
    version: 1,
    created_at: "",
    updated_at: "",
  };
  const before = { ...base, fields: { a: 1, b: "x" }, status: "new" };
  const after = { ...base, fields: { a: 2, c: true }, status: "done", drifted: true };
  expect(diffRecords(before, after)).toEqual([
    { path: "fields.a", before: 1, after: 2 },
    { path: "fields.b", before: "x", after: null },
    { path: "fields.c", before: null, after: true },
    { path: "status", before: "new", after: "done" },
    { path: "drifted", before: false, after: true },
  ]);
});

describe("entity keys", () => {
  test("normalizeDedupKey() folds width, case, and whitespace", () => {
    expect(normalizeDedupKey("  ＡＣＭＥ.com \t Inc ")).toBe("acme.com inc");
  });
  test("looseKey() drops a URL scheme, www. and punctuation", () => {
    expect(looseKey("https://www.Acme.com/")).toBe(looseKey("acme.com"));
    expect(looseKey("Acme, Inc.")).toBe(looseKey("ACME Inc"));
  });
  test("mergeEntity() reports the attributes it changed, and null when nothing changes", () => {
    const e: Entity = {
      id: "e",
      workspace_id: "w",
      kind: "company",
      name: "Acme",
      dedup_key: "a",
      dedup_norm: "a",
      attributes: { size: 1, city: "Oslo" },
      version: 1,
      created_at: "t",
      updated_at: "t",
    };
    expect(mergeEntity(e, { kind: "company", name: "Acme", attributes: { size: 1 } }, "t2")).toBeNull();
    const m = mergeEntity(e, { kind: "company", name: "Acme", attributes: { size: 2, city: null, new: "x" } }, "t2");
    expect(m?.changed).toEqual(["city", "new", "size"]);
    expect(m?.next).toMatchObject({ attributes: { size: 2, new: "x" }, version: 2, updated_at: "t2" });
  });
});

test("collectionProblems() finds views, presentation and mapping naming fields the schema lacks", () => {
  const problems = collectionProblems({
    record_schema: schema,
    views: [{ name: "v", kind: "table", columns: ["fields.name", "fields.zzz"], sort: { field: "fields.tags" } }],
    presentation: { title_field: "nope", default_view: "w" },
    connector_mapping: { source: "csv", fields: { gone: "col" } },
  });
  expect(problems.map((p) => p.path)).toEqual([
    "/views/0/columns/1",
    "/views/0/sort/field",
    "/presentation/title_field",
    "/presentation/default_view",
    "/connector_mapping/fields/gone",
  ]);
});

test("trimToBytes() fits a record into the bound and says what it cut", () => {
  const view = {
    id: "r",
    collection_id: "c",
    status: "new",
    entity_id: null,
    drifted: false,
    version: 1,
    created_at: "t",
    updated_at: "t",
    fields: { a: "x".repeat(3000), b: 1 },
    field_meta: { a: { source: "s" } },
  };
  const t = trimToBytes(view, 1000);
  expect(new TextEncoder().encode(JSON.stringify(t.record)).length).toBeLessThanOrEqual(1000);
  expect(t).toMatchObject({ truncated: true, omitted: ["field_meta"], shortened: ["fields.a"] });
  expect(trimToBytes(view, 100_000).truncated).toBe(false);
});
