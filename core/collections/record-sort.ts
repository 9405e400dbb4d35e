import { type Static, Type } from "@sinclair/typebox";
import { validationFailed } from "../kernel/errors.ts";
import { isUuid } from "../kernel/ids.ts";
import type { CollectionRecord } from "./model.ts";
import { compareValues, isScalar, type Operand, operandOf, operandValue, type Scalar } from "./record-filter.ts";
import type { RecordSchema } from "./record-schema.ts";

/**
 * The order of a record listing and its keyset position. One sort key, then the record id in
 * the same direction; records without a value for the key (or with a value of another type)
 * come last in either direction. Sorting by `created_at` is sorting by id (UUIDv7: creation
 * order), which every store serves from its primary index. An undeclared field sorts its scalar
 * values in `compareValues` order (numbers, strings, booleans; reversed when descending); arrays
 * and objects sort with the missing values.
 */
export const RecordSort = Type.Object(
  {
    field: Type.String({
      maxLength: 80,
      description:
        "`created_at` (default), `updated_at`, `status`, a scalar `fields.<name>`, or an undeclared field where the collection accepts them.",
    }),
    dir: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")], { description: "Default desc." })),
  },
  { additionalProperties: false },
);
export type RecordSort = Static<typeof RecordSort>;

export interface CompiledSort {
  /** null: by id */
  operand: Operand | null;
  dir: "asc" | "desc";
}

/** Where a page ended: the last record's id and (unless sorting by id) its sort value, null when it had none. */
export interface KeysetPosition {
  id: string;
  v?: Scalar | null;
}

export const DEFAULT_SORT: CompiledSort = { operand: null, dir: "desc" };

export function compileSort(schema: RecordSchema, sort: RecordSort | undefined): CompiledSort {
  if (!sort) return DEFAULT_SORT;
  const dir = sort.dir ?? "desc";
  if (sort.field === "created_at") return { operand: null, dir };
  const operand = operandOf(schema, sort.field);
  const bad = (message: string) => validationFailed("Invalid sort", [{ path: "/sort/field", message }]);
  if (typeof operand === "string") throw bad(operand);
  if (operand.type === "list" || operand.type === "boolean") throw bad("lists and true/false values cannot be sorted on");
  return { operand, dir };
}

/** The record's sort value, null when it has none of the operand's type (any scalar, for an undeclared field). */
export function sortValue(r: CollectionRecord, o: Operand): Scalar | null {
  const v = operandValue(r as unknown as CollectionRecord & Record<string, unknown>, o);
  if (o.type === "any") return isScalar(v) ? v : null;
  return (o.type === "number" && typeof v === "number") || (o.type === "text" && typeof v === "string") ? v : null;
}

const cmp = compareValues;

/** The reference order. */
export function compareRecords(a: CollectionRecord, b: CollectionRecord, s: CompiledSort): number {
  const sign = s.dir === "asc" ? 1 : -1;
  if (s.operand) {
    const [x, y] = [sortValue(a, s.operand), sortValue(b, s.operand)];
    if (x === null && y !== null) return 1;
    if (y === null && x !== null) return -1;
    if (x !== null && y !== null && x !== y) return sign * cmp(x, y);
  }
  return sign * cmp(a.id, b.id);
}

export function positionOf(r: CollectionRecord, s: CompiledSort): KeysetPosition {
  return s.operand ? { id: r.id, v: sortValue(r, s.operand) } : { id: r.id };
}

/** True when `r` comes after `pos` in the order (the reference of every store's keyset condition). */
export function isAfter(r: CollectionRecord, pos: KeysetPosition, s: CompiledSort): boolean {
  const sign = s.dir === "asc" ? 1 : -1;
  const idAfter = sign * cmp(r.id, pos.id) > 0;
  if (!s.operand) return idAfter;
  const v = sortValue(r, s.operand);
  const p = pos.v ?? null;
  if (p === null) return v === null && idAfter;
  if (v === null) return true;
  return v === p ? idAfter : sign * cmp(v, p) > 0;
}

/** A decoded cursor's position, checked: cursors are client input. */
export function checkedPosition(raw: unknown, s: CompiledSort): KeysetPosition {
  const bad = () => validationFailed("Invalid cursor: it is not a cursor this API issued", [{ path: "cursor", message: "malformed" }]);
  if (!raw || typeof raw !== "object") throw bad();
  const { id, v } = raw as KeysetPosition;
  if (typeof id !== "string" || !isUuid(id)) throw bad();
  if (!s.operand) return { id };
  const type = s.operand.type;
  const ok = v === null ||
    ((type === "number" || type === "any") && typeof v === "number" && Number.isFinite(v)) ||
    ((type === "text" || type === "any") && typeof v === "string" && v.length <= 10_000) ||
    (type === "any" && typeof v === "boolean");
  if (!ok) throw bad();
  return { id, v };
}
