/**
 * Jest's equality (what `toEqual`, `toContainEqual` and `toMatchObject` mean), written out for
 * runners that bring no `expect` of their own: nothing to fetch or install under Deno.
 * tests/unit/contract-kit-expect.test.ts checks it against Bun's own `expect`, case by case.
 */

/** `expect.any(String)` and the like: matches a received value by its own rule. */
export interface AsymmetricMatcher {
  asymmetricMatch(received: unknown): boolean;
  toString(): string;
}

export function isAsymmetric(v: unknown): v is AsymmetricMatcher {
  return typeof v === "object" && v !== null && typeof (v as AsymmetricMatcher).asymmetricMatch === "function";
}

/** `expect.any(type)`: a primitive of that type, or an instance of it. */
export function anyOf(type: (...args: any[]) => unknown): AsymmetricMatcher {
  const primitive: Record<string, string> = {
    String: "string",
    Number: "number",
    Boolean: "boolean",
    BigInt: "bigint",
    Symbol: "symbol",
    Function: "function",
  };
  return {
    asymmetricMatch: (received) =>
      typeof received === primitive[type.name] ||
      (typeof received === "object" && received !== null && received instanceof (type as never)) ||
      (type === Object && typeof received === "object" && received !== null),
    toString: () => `Any<${type.name}>`,
  };
}

const kindOf = (v: object) => Object.prototype.toString.call(v);
/** Own enumerable keys whose value is not undefined: `toEqual` ignores undefined properties. */
const definedKeys = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);

/** Recursive equality: `Object.is` on primitives, same kind of object, undefined properties ignored. */
export function equals(a: unknown, b: unknown): boolean {
  if (isAsymmetric(b)) return b.asymmetricMatch(a);
  if (isAsymmetric(a)) return a.asymmetricMatch(b);
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const kind = kindOf(a);
  if (kind !== kindOf(b)) return false;
  switch (kind) {
    case "[object Date]":
    case "[object Number]":
    case "[object String]":
    case "[object Boolean]":
      return Object.is(a.valueOf(), b.valueOf());
    case "[object RegExp]":
      return String(a) === String(b);
    case "[object Map]": {
      const [m, n] = [a as Map<unknown, unknown>, b as Map<unknown, unknown>];
      return m.size === n.size && [...m].every(([k, v]) => n.has(k) && equals(v, n.get(k)));
    }
    case "[object Set]": {
      const [m, n] = [[...(a as Set<unknown>)], [...(b as Set<unknown>)]];
      return m.length === n.length && m.every((v) => n.some((w) => equals(v, w)));
    }
  }
  if (ArrayBuffer.isView(a)) {
    return equals([...(a as unknown as ArrayLike<unknown> & Iterable<unknown>)], [...(b as unknown as Iterable<unknown>)]);
  }
  if (Array.isArray(a)) {
    const c = b as unknown[];
    return a.length === c.length && a.every((v, i) => equals(v, c[i]));
  }
  const [ka, kb] = [definedKeys(a), definedKeys(b)];
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equals((a as never)[k], (b as never)[k]));
}

/** `toMatchObject`: every property of `expected` is in `received` and matches, recursively; arrays match element by element. */
export function matchesObject(received: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(received);
  if (Array.isArray(expected)) {
    return Array.isArray(received) && received.length === expected.length && expected.every((e, i) => matchesObject(received[i], e));
  }
  if (typeof expected !== "object" || expected === null || kindOf(expected) !== "[object Object]") return equals(received, expected);
  if (typeof received !== "object" || received === null) return false;
  return Object.keys(expected).every((k) => k in received && matchesObject((received as never)[k], (expected as never)[k]));
}
