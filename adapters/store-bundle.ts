/**
 * One module's part of a store adapter: the stores of its bundle (core/<module>/ports.ts). Each
 * adapter adds how a workspace's data of the module is purged (ADR 019) and composes its bundles in
 * its mod.ts, the one list a new module joins.
 */
export interface StoreBundle<S> {
  stores: S;
}

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The stores of every bundle, flat: what `Stores` is made of. */
export function storesOf<B extends readonly StoreBundle<object>[]>(bundles: B): Intersection<B[number]["stores"]> {
  return Object.assign({}, ...bundles.map((b) => b.stores));
}
