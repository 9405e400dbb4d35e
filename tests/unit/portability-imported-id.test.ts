import { describe, expect, test } from "bun:test";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { importedId } from "../../core/portability/mod.ts";

const WS = "0196a000-0000-7000-8000-000000000001";
const OTHER = "0196a000-0000-7000-8000-000000000002";
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("importedId: the id an import derives for an object whose id it does not keep (ADR 068)", () => {
  test("a UUIDv7 with the archive id's time: lists ordered by id keep their order", () => {
    const ids = Array.from({ length: 200 }, (_, i) => uuidv7(1_700_000_000_000 + i * 1000));
    const derived = ids.map((id) => importedId(WS, "records", id));
    for (const [i, d] of derived.entries()) {
      expect(d).toMatch(V7);
      expect(d.slice(0, 13)).toBe(ids[i]!.slice(0, 13));
    }
    expect([...derived].sort()).toEqual(derived);
    expect(new Set(derived).size).toBe(ids.length);
  });

  test("the same for the same target, kind and archive id (a re-run finds it); another for any other", () => {
    const id = uuidv7();
    expect(importedId(WS, "topics", id)).toBe(importedId(WS, "topics", id));
    expect(importedId(OTHER, "topics", id)).not.toBe(importedId(WS, "topics", id));
    expect(importedId(WS, "areas", id)).not.toBe(importedId(WS, "topics", id));
    expect(importedId(WS, "topics", id)).not.toBe(id);
  });

  test("an id that is not a UUID still gives a UUIDv7", () => {
    expect(importedId(WS, "topics", "not-a-uuid")).toMatch(V7);
  });
});
