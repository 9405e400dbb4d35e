import type { CollectionRecord, FieldDiff } from "./model.ts";

/** Equal as JSON: scalars compared as they are (most values; no text built), lists and objects as their JSON. */
const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === "object" && a !== null && typeof b === "object" && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** What changed between two states of a record, value by value; absent values are null. */
export function diffRecords(before: CollectionRecord | null, after: CollectionRecord): FieldDiff[] {
  const out: FieldDiff[] = [];
  diffValues("fields", before?.fields ?? {}, after.fields, out);
  diffValues("field_meta", before?.field_meta ?? {}, after.field_meta, out);
  for (const k of ["status", "entity_id", "drifted"] as const) {
    const [x, y] = [before ? before[k] : null, after[k]];
    if (!same(x, y)) out.push({ path: k, before: x, after: y });
  }
  return out;
}

/** The entries of `a` and `b` that differ, in name order (every record write and every imported row diffs here). */
function diffValues(prefix: string, a: Record<string, unknown>, b: Record<string, unknown>, out: FieldDiff[]): void {
  const names = Object.keys(b);
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) names.push(k);
  names.sort();
  for (const k of names) {
    if (!same(a[k], b[k])) out.push({ path: `${prefix}.${k}`, before: a[k] ?? null, after: b[k] ?? null });
  }
}
