import { describe, expect, test } from "bun:test";
import { AppError } from "../../core/kernel/errors.ts";
import { isUuid, uuidv7 } from "../../core/kernel/ids.ts";
import { decodeCursor, encodeCursor } from "../../core/kernel/keyset-cursor.ts";
import { parseOffsetPage } from "../../core/kernel/paging.ts";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : "other";
  }
  return "none";
};

describe("uuidv7()", () => {
  test("uuidv7() yields valid, strictly increasing ids within one millisecond", () => {
    const ids = Array.from({ length: 2000 }, () => uuidv7(1_700_000_000_000));
    expect(ids.every(isUuid)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]![14]).toBe("7");
  });

  test("uuidv7() encodes the timestamp in its first 48 bits", () => {
    const id = uuidv7(Date.UTC(2030, 0, 1));
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBeGreaterThanOrEqual(Date.UTC(2030, 0, 1));
  });
});

describe("keyset cursors", () => {
  test("decodeCursor() returns the key for the query it was issued for", () => {
    const q = { filter: { status: "open" }, sort: "updated_at" };
    expect(decodeCursor(encodeCursor(q, ["2026-01-01", "id-1"]), q)).toEqual(["2026-01-01", "id-1"]);
  });

  test("decodeCursor() rejects a cursor replayed with another filter or sort", () => {
    const cursor = encodeCursor({ filter: { status: "open" } }, ["k"]);
    expect(code(() => decodeCursor(cursor, { filter: { status: "won" } }))).toBe("VALIDATION_FAILED");
  });

  test("decodeCursor() rejects garbage", () => {
    for (const bad of ["", "!!!", "eyJ4IjoxfQ", "a".repeat(5000)]) {
      expect(code(() => decodeCursor(bad, {}))).toBe("VALIDATION_FAILED");
    }
  });
});

describe("parseOffsetPage()", () => {
  test("parseOffsetPage() applies defaults", () => {
    expect(parseOffsetPage({})).toEqual({ limit: 50, offset: 0 });
    expect(parseOffsetPage({ limit: "200", offset: "10" })).toEqual({ limit: 200, offset: 10 });
  });

  test("parseOffsetPage() refuses out-of-range values instead of clamping", () => {
    for (const q of [{ limit: "201" }, { limit: "0" }, { limit: "-1" }, { limit: "1.5" }, { offset: "10001" }, { limit: "9".repeat(20) }]) {
      expect(code(() => parseOffsetPage(q))).toBe("VALIDATION_FAILED");
    }
  });
});
