import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { literalUnion } from "../../core/kernel/literal-union.ts";
import { allowedValues, schemaErrorDetails } from "../../core/kernel/schema-errors.ts";
import { assertValid } from "../../core/kernel/validation.ts";
import { isAppError } from "../../core/kernel/errors.ts";

const Provider = literalUnion(["github", "gitlab", "bitbucket", "git"] as const);
const details = (schema: Parameters<typeof Value.Errors>[0], value: unknown, prefix?: string) =>
  schemaErrorDetails(Value.Errors(schema, value), { prefix });

describe("allowedValues()", () => {
  test("reads a string enum, a constant, a union of literals, nullable or nested", () => {
    expect(allowedValues(Type.String({ enum: ["a", "b"] }))).toEqual(["a", "b"]);
    expect(allowedValues(Type.Literal(true))).toEqual([true]);
    expect(allowedValues(Provider)).toEqual(["github", "gitlab", "bitbucket", "git"]);
    expect(allowedValues(Type.Union([Provider, Type.Null()]))).toEqual(["github", "gitlab", "bitbucket", "git", null]);
  });

  test("is undefined for a schema of shapes, a plain string, or null alone", () => {
    expect(allowedValues(Type.String())).toBeUndefined();
    expect(allowedValues(Type.Union([Type.Object({ a: Type.String() }), Type.Null()]))).toBeUndefined();
    expect(allowedValues(Type.Union([Type.Literal("a"), Type.String()]))).toBeUndefined();
    expect(allowedValues(Type.Null())).toBeUndefined();
  });
});

describe("schemaErrorDetails()", () => {
  test("a value outside a union of literals names every allowed value, at its own path", () => {
    const Body = Type.Object({ provider: Provider });
    expect(details(Body, { provider: "svn" }, "body")).toEqual([
      { path: "body/provider", message: "expected one of github, gitlab, bitbucket, git" },
    ]);
  });

  test("nested, in an array, nullable: the same words", () => {
    const Body = Type.Object({
      views: Type.Array(Type.Object({ kind: Provider })),
      kind: Type.Optional(Type.Union([literalUnion(["note", "doc"] as const), Type.Null()])),
    });
    expect(details(Body, { views: [{ kind: "x" }], kind: "x" })).toEqual([
      { path: "/views/0/kind", message: "expected one of github, gitlab, bitbucket, git" },
      { path: "/kind", message: "expected one of note, doc, null" },
    ]);
  });

  test("a missing enum property is said once, with its values", () => {
    expect(details(Type.Object({ provider: Provider }), {})).toEqual([
      { path: "/provider", message: "Expected required property: expected one of github, gitlab, bitbucket, git" },
    ]);
  });

  test("null where an enum takes none says the field cannot be null", () => {
    expect(details(Type.Object({ provider: Provider }), { provider: null })).toEqual([
      { path: "/provider", message: "expected one of github, gitlab, bitbucket, git: this field cannot be null" },
    ]);
  });

  test("a failed union of shapes speaks for its closest variant, down a recursive filter", () => {
    const Leaf = Type.Object({ field: Type.String(), op: literalUnion(["eq", "ne"] as const) }, { additionalProperties: false });
    const And = Type.Object({ and: Type.Array(Leaf) }, { additionalProperties: false });
    const Filter = Type.Union([Leaf, And]);
    expect(details(Filter, { field: "a", op: "gt" })).toEqual([{ path: "/op", message: "expected one of eq, ne" }]);
    expect(details(Filter, { and: [{ field: "a", op: "gt" }] })).toEqual([{ path: "/and/0/op", message: "expected one of eq, ne" }]);
    // A value of another kind than every variant: the union's own error, in words.
    expect(details(Type.Union([Leaf, Type.Null()]), 3)).toEqual([{ path: "/", message: "expected object or null" }]);
  });

  test("a variant that takes the value's kind but not its size is still the closest", () => {
    const Filter = Type.Union([Type.Object({ a: Type.Optional(Type.String()) }, { minProperties: 1 }), Type.Null()]);
    const [only] = details(Filter, {});
    expect(only!.path).toBe("/");
    expect(only!.message).toContain("at least 1");
  });

  test("the caller's own wording of a non-enum error, and the limit", () => {
    const Query = Type.Object({
      limit: Type.Integer({ minimum: 1, maximum: 10 }),
      view: Type.String({ enum: ["a", "b"], pattern: "^(a|b)$" }),
    });
    const out = schemaErrorDetails(Value.Errors(Query, { limit: 99, view: "c" }), {
      prefix: "query",
      describe: (e) => (e.path === "/limit" ? "expected an integer from 1 to 10" : undefined),
    });
    expect(out).toEqual([
      { path: "query/limit", message: "expected an integer from 1 to 10" },
      { path: "query/view", message: "expected one of a, b" },
    ]);
    expect(schemaErrorDetails(Value.Errors(Query, { limit: 99, view: "c" }), { limit: 1 })).toHaveLength(1);
  });

  test("a union the caller words itself is not broken into its variants", () => {
    const Flag = Type.Object({ stale: Type.Union([Type.Boolean(), Type.String({ pattern: "^(true|false)$" })]) });
    const describe = (e: { schema?: unknown }) =>
      (e.schema as { anyOf?: Array<{ type?: string }> }).anyOf?.some((s) => s.type === "boolean") ? "expected true or false" : undefined;
    expect(schemaErrorDetails(Value.Errors(Flag, { stale: "maybe" }), { describe })).toEqual([
      { path: "/stale", message: "expected true or false" },
    ]);
  });
});

describe("assertValid()", () => {
  test("refuses with VALIDATION_FAILED whose details name an enum's values", () => {
    try {
      assertValid(Type.Object({ provider: Provider }), { provider: "svn" }, "repo");
      throw new Error("accepted");
    } catch (e) {
      expect(isAppError(e) && e.code).toBe("VALIDATION_FAILED");
      expect(isAppError(e) && e.details).toEqual([{ path: "/provider", message: "expected one of github, gitlab, bitbucket, git" }]);
    }
  });
});
