import { describe, expect, test } from "bun:test";
import { importedId } from "../../core/portability/mod.ts";

const WS = "0196a000-0000-7000-8000-000000000001";
const OTHER = "0196a000-0000-7000-8000-000000000002";
/** A UUIDv7 of time `ms` (uuidv7() never goes back in time within a process, so it cannot make past ones). */
const v7At = (ms: number) => {
  const t = ms.toString(16).padStart(12, "0");
  const r = crypto.randomUUID().replaceAll("-", "");
  return `${t.slice(0, 8)}-${t.slice(8)}-7${r.slice(0, 3)}-8${r.slice(4, 7)}-${r.slice(7, 19)}`;
};
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("importedId: the id an import derives for an object whose id it does not keep (ADR 068)", () => {
  test("a UUIDv7 with the archive id's time: lists ordered by id keep their order", () => {
    const ids = Array.from({ length: 200 }, (_, i) => v7At(1_700_000_000_000 + i * 1000));
    const derived = ids.map((id) => importedId(WS, "records", id));
    for (const [i, d] of derived.entries()) {
      expect(d).toMatch(V7);
      expect(d.slice(0, 13)).toBe(ids[i]!.slice(0, 13));
    }
    expect([...derived].sort()).toEqual(derived);
    expect(new Set(derived).size).toBe(ids.length);
  });

  test("the same for the same target, kind and archive id (a re-run finds it); another for any other", () => {
    const id = v7At(Date.now());
    expect(importedId(WS, "topics", id)).toBe(importedId(WS, "topics", id));
    expect(importedId(OTHER, "topics", id)).not.toBe(importedId(WS, "topics", id));
    expect(importedId(WS, "areas", id)).not.toBe(importedId(WS, "topics", id));
    expect(importedId(WS, "topics", id)).not.toBe(id);
  });

  test("an id that is not a UUID still gives a UUIDv7", () => {
    expect(importedId(WS, "topics", "not-a-uuid")).toMatch(V7);
  });
});
