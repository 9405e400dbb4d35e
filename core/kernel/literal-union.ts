import { type SchemaOptions, type TLiteral, type TUnion, Type } from "@sinclair/typebox";

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/** A union of string literals from a const list, keeping each literal in the static type. */
export function literalUnion<const T extends readonly string[]>(values: T, options?: SchemaOptions): TUnion<Literals<T>> {
  return Type.Union(values.map((v) => Type.Literal(v)), options) as unknown as TUnion<Literals<T>>;
}
