import type { CollectionRecord, FieldDiff } from "./model.ts";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What changed between two states of a record, value by value; absent values are null. */
export function diffRecords(before: CollectionRecord | null, after: CollectionRecord): FieldDiff[] {
  const out: FieldDiff[] = [];
  const maps: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["fields", before?.fields ?? {}, after.fields],
    ["field_meta", before?.field_meta ?? {}, after.field_meta],
  ];
  for (const [prefix, a, b] of maps) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!same(a[k], b[k])) out.push({ path: `${prefix}.${k}`, before: a[k] ?? null, after: b[k] ?? null });
    }
  }
  for (const k of ["status", "entity_id", "drifted"] as const) {
    const [x, y] = [before ? before[k] : null, after[k]];
    if (!same(x, y)) out.push({ path: k, before: x, after: y });
  }
  return out;
}
