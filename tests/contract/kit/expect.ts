import { anyOf, equals, isAsymmetric, matchesObject } from "./equality.ts";
import type { Expect, Matchers } from "./test-api.ts";

/** Shows a value in a failure message: JSON where it can, with what JSON would lose spelled out. */
function show(v: unknown): string {
  if (v === undefined) return "undefined";
  if (typeof v === "bigint") return `${v}n`;
  try {
    return JSON.stringify(
      v,
      (_k, x) => (x === undefined ? "<undefined>" : typeof x === "bigint" ? `${x}n` : isAsymmetric(x) ? x.toString() : x),
      2,
    );
  } catch {
    return String(v);
  }
}

const hasLength = (v: unknown) =>
  typeof v === "string" || (typeof v === "object" && v !== null && typeof (v as { length?: unknown }).length === "number");
const isIterable = (v: unknown): v is Iterable<unknown> =>
  typeof v === "string" || (typeof v === "object" && v !== null && Symbol.iterator in v);
const isNumeric = (v: unknown): v is number | bigint => typeof v === "number" || typeof v === "bigint";
const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;

interface Check {
  pass(received: unknown, expected: unknown): boolean;
  /** What the matcher needs of its arguments; as in Jest, unmet it fails with or without `.not`. */
  needs?: [(received: unknown, expected: unknown) => boolean, string];
}
const numbers: Check["needs"] = [(r, e) => isNumeric(r) && isNumeric(e), "received and expected values must be numbers or bigints"];

const checks: Record<Exclude<keyof Matchers, "not">, Check> = {
  toBe: { pass: (r, e) => Object.is(r, e) },
  toEqual: { pass: equals },
  toMatchObject: {
    pass: matchesObject,
    needs: [(r, e) => isObject(r) && isObject(e), "received and expected values must be non-null objects"],
  },
  toBeNull: { pass: (r) => r === null },
  toBeUndefined: { pass: (r) => r === undefined },
  toBeDefined: { pass: (r) => r !== undefined },
  toMatch: {
    pass: (r, e) => (typeof e === "string" ? (r as string).includes(e) : (e as RegExp).test(r as string)),
    needs: [
      (r, e) => typeof r === "string" && (typeof e === "string" || e instanceof RegExp),
      "received value must be a string, expected a string or a regular expression",
    ],
  },
  toContain: {
    pass: (r, e) => (typeof r === "string" ? typeof e === "string" && r.includes(e) : [...(r as Iterable<unknown>)].indexOf(e) !== -1),
    needs: [isIterable, "received value must be a string or an iterable"],
  },
  toContainEqual: {
    pass: (r, e) => [...(r as Iterable<unknown>)].some((x) => equals(x, e)),
    needs: [isIterable, "received value must be iterable"],
  },
  toHaveLength: {
    pass: (r, e) => (r as { length: unknown }).length === e,
    needs: [hasLength, "received value must have a length property"],
  },
  toBeGreaterThan: { pass: (r, e) => (r as number) > (e as number), needs: numbers },
  toBeGreaterThanOrEqual: { pass: (r, e) => (r as number) >= (e as number), needs: numbers },
  toBeLessThan: { pass: (r, e) => (r as number) < (e as number), needs: numbers },
  toBeLessThanOrEqual: { pass: (r, e) => (r as number) <= (e as number), needs: numbers },
};

function matchers(received: unknown, negated: boolean): Matchers {
  const out: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(checks)) {
    out[name] = (...args: unknown[]) => {
      const call = `expect(received).${negated ? "not." : ""}${name}(${args.length ? "expected" : ""})`;
      if (check.needs && !check.needs[0](received, args[0])) throw new Error(`${call}: ${check.needs[1]}\n\nReceived: ${show(received)}`);
      if (check.pass(received, args[0]) !== negated) return;
      const detail = args.length ? `Expected: ${negated ? "not " : ""}${show(args[0])}\n` : "";
      throw new Error(`${call}\n\n${detail}Received: ${show(received)}`);
    };
  }
  if (!negated) out.not = matchers(received, true);
  return out as unknown as Matchers;
}

/** A dependency-free `expect` with the kit's matchers, for runners that have none (Deno without JSR). */
export const expect: Expect = Object.assign((received: unknown) => matchers(received, false), { any: anyOf });
