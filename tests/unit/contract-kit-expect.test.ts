import { expect, test } from "bun:test";
import { expect as kitExpect } from "../contract/kit/expect.ts";
import type { Expect, Matchers } from "../contract/kit/test-api.ts";

type Matcher = Exclude<keyof Matchers, "not">;
/** [what the case shows, received, expected]; each runs with and without `.not`. */
type Case = [string, unknown, unknown?];

// Asymmetric matchers are made by the expect under test, so each side matches with its own.
const ANY = Symbol("any");
/** `expect.any(type)`, made later by the expect under test. */
function any(type: (...args: any[]) => unknown) {
  return { [ANY]: type };
}
const date = (s: string) => new Date(s);
const cases: Record<Matcher, Case[]> = {
  toBe: [
    ["same primitive", 1, 1],
    ["equal objects are not the same", { a: 1 }, { a: 1 }],
    ["NaN is NaN", NaN, NaN],
    ["0 is not -0", 0, -0],
    ["null is not undefined", null, undefined],
    ["a string is not a number", "1", 1],
  ],
  toEqual: [
    ["nested objects and arrays", { a: 1, b: [1, { c: "x" }] }, { a: 1, b: [1, { c: "x" }] }],
    ["a nested difference", { a: 1, b: [1, { c: "x" }] }, { a: 1, b: [1, { c: "y" }] }],
    ["undefined properties are ignored", { a: 1, b: undefined }, { a: 1 }],
    ["undefined properties are ignored on the other side", { a: 1 }, { a: 1, b: undefined }],
    ["null is not a missing property", { a: 1, b: null }, { a: 1 }],
    ["key order does not matter", { a: 1, b: 2 }, { b: 2, a: 1 }],
    ["an extra property", { a: 1, b: 2 }, { a: 1 }],
    ["array order matters", [1, 2], [2, 1]],
    ["array length matters", [1, 2], [1, 2, 3]],
    ["an array is not an object with its indexes", [1], { 0: 1 }],
    ["dates by instant", date("2026-01-01T00:00:00Z"), date("2026-01-01T00:00:00.000Z")],
    ["different dates", date("2026-01-01T00:00:00Z"), date("2026-01-02T00:00:00Z")],
    ["a date is not its ISO string", date("2026-01-01T00:00:00Z"), "2026-01-01T00:00:00.000Z"],
    ["0 is not -0", 0, -0],
    ["NaN equals NaN", [NaN], [NaN]],
    ["null is not undefined", null, undefined],
    ["a number is not a string", 1, "1"],
    ["maps by entries", new Map([["a", { b: 1 }]]), new Map([["a", { b: 1 }]])],
    ["maps with different values", new Map([["a", 1]]), new Map([["a", 2]])],
    ["sets in any order", new Set([1, 2]), new Set([2, 1])],
    ["sets with different members", new Set([1, 2]), new Set([1, 3])],
    ["byte arrays", new Uint8Array([1, 2]), new Uint8Array([1, 2])],
    ["different byte arrays", new Uint8Array([1, 2]), new Uint8Array([1, 3])],
    ["expect.any(String) matches a string", { id: "x", n: 1 }, { id: any(String), n: 1 }],
    ["expect.any(String) does not match a number", { id: 1 }, { id: any(String) }],
    ["expect.any(String) does not match null", { id: null }, { id: any(String) }],
    ["expect.any(Number) matches a number", [3], [any(Number)]],
    ["expect.any(Date) matches a date", [date("2026-01-01T00:00:00Z")], [any(Date)]],
  ],
  toMatchObject: [
    ["a subset of properties", { a: 1, b: 2, c: { d: 3, e: 4 } }, { a: 1, c: { d: 3 } }],
    ["a differing property", { a: 1, b: 2 }, { a: 1, b: 3 }],
    ["a missing property", { a: 1 }, { a: 1, b: 2 }],
    ["a property expected undefined must exist", { a: 1 }, { a: 1, b: undefined }],
    ["a property expected undefined that exists", { a: 1, b: undefined }, { b: undefined }],
    ["arrays match element by element", { xs: [{ a: 1, b: 2 }] }, { xs: [{ a: 1 }] }],
    ["arrays of another length", { xs: [{ a: 1 }, { a: 2 }] }, { xs: [{ a: 1 }] }],
    ["expect.any inside", { id: "x", n: 1 }, { id: any(String) }],
    ["dates inside", { at: date("2026-01-01T00:00:00Z") }, { at: date("2026-01-01T00:00:00Z") }],
    ["received null", null, { a: 1 }],
  ],
  toBeNull: [
    ["null", null],
    ["undefined", undefined],
    ["zero", 0],
  ],
  toBeUndefined: [
    ["undefined", undefined],
    ["null", null],
    ["an empty string", ""],
  ],
  toBeDefined: [
    ["undefined", undefined],
    ["null", null],
    ["zero", 0],
  ],
  toMatch: [
    ["a substring", "hello world", "lo w"],
    ["not a substring", "hello", "z"],
    ["a matching pattern", "wks_abc", /^wks_[a-z]+$/],
    ["a pattern that does not match", "wks_ABC", /^wks_[a-z]+$/],
    ["a number received", 12, "1"],
  ],
  toContain: [
    ["an array holding the item", [1, 2, 3], 2],
    ["an array not holding it", [1, 2, 3], 4],
    ["an equal object is not the same item", [{ a: 1 }], { a: 1 }],
    ["a substring", "hello world", "lo w"],
    ["not a substring", "hello", "z"],
    ["a set member", new Set(["a"]), "a"],
    ["received null", null, 1],
  ],
  toContainEqual: [
    ["an equal object", [{ a: 1 }, { b: 2 }], { b: 2 }],
    ["no equal object", [{ a: 1 }], { a: 2 }],
    ["undefined properties ignored", [{ a: 1, b: undefined }], { a: 1 }],
    ["received null", null, { a: 1 }],
  ],
  toHaveLength: [
    ["an array", [1, 2], 2],
    ["an array of another length", [1, 2], 3],
    ["a string", "abc", 3],
    ["received null", null, 0],
    ["an object without length", { a: 1 }, 1],
  ],
  toBeGreaterThan: [
    ["greater", 3, 2],
    ["equal", 2, 2],
    ["a number and a bigint", 3, 2n],
    ["a string received", "3", 2],
  ],
  toBeGreaterThanOrEqual: [
    ["greater", 3, 2],
    ["equal", 2, 2],
    ["less", 1, 2],
    ["bigints", 3n, 2n],
    ["a string received", "3", 2],
  ],
  toBeLessThan: [
    ["less", 1, 2],
    ["equal", 2, 2],
    ["bigints", 1n, 2n],
    ["a string received", "1", 2],
  ],
  toBeLessThanOrEqual: [
    ["less", 1, 2],
    ["equal", 2, 2],
    ["greater", 3, 2],
    ["a string received", "1", 2],
  ],
};

function resolve(v: unknown, e: Expect): unknown {
  if (Array.isArray(v)) return v.map((x) => resolve(x, e));
  if (typeof v === "object" && v !== null && ANY in v) return e.any((v as { [ANY]: (...args: any[]) => unknown })[ANY]);
  if (typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, e)]));
  }
  return v;
}

function verdict(e: Expect, negated: boolean, matcher: Matcher, received: unknown, expected: unknown[]): "pass" | "fail" {
  // A copy each time: Bun's toMatchObject writes the asymmetric matchers it met into the received value.
  const copy = structuredClone(received);
  const m = negated ? e(copy).not : e(copy);
  try {
    (m[matcher] as (...args: unknown[]) => void)(...expected.map((x) => resolve(x, e)));
    return "pass";
  } catch {
    return "fail";
  }
}

for (const [matcher, table] of Object.entries(cases) as [Matcher, Case[]][]) {
  test(`kit expect().${matcher}() passes and fails exactly where Bun's expect does`, () => {
    const disagreements: string[] = [];
    const verdicts = new Set<string>();
    for (const [label, received, ...rest] of table) {
      const expected = ["toBeNull", "toBeUndefined", "toBeDefined"].includes(matcher) ? [] : rest;
      for (const negated of [false, true]) {
        const bun = verdict(expect as unknown as Expect, negated, matcher, received, expected);
        const kit = verdict(kitExpect, negated, matcher, received, expected);
        verdicts.add(bun);
        if (kit !== bun) disagreements.push(`${negated ? "not." : ""}${matcher}: ${label}: Bun ${bun}, kit ${kit}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect([...verdicts].sort()).toEqual(["fail", "pass"]);
  });
}

test("kit expect() says what it expected and what it received", () => {
  expect(() => kitExpect({ a: 1 }).toEqual({ a: 2 })).toThrow(
    'expect(received).toEqual(expected)\n\nExpected: {\n  "a": 2\n}\nReceived: {\n  "a": 1\n}',
  );
  expect(() => kitExpect(1).not.toBe(1)).toThrow("Expected: not 1");
});
