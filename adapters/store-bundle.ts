import { composeTransfer, type StoreTransfer, type TransferKind } from "../core/kernel/store-transfer.ts";

/**
 * One module's part of a store adapter: the stores of its bundle (core/<module>/ports.ts). Each
 * adapter adds how a workspace's data of the module is purged (ADR 019) and composes its bundles in
 * its mod.ts, the one list a new module joins.
 */
export interface StoreBundle<S> {
  stores: S;
  /**
   * The module's kinds as they move between stores (core/kernel/store-transfer.ts, ADR 067), in
   * write order. Every bundle that stores anything declares them, on every adapter alike.
   */
  transfer?: readonly TransferKind[];
}

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The stores of every bundle, flat: what `Stores` is made of. */
export function storesOf<B extends readonly StoreBundle<object>[]>(bundles: B): Intersection<B[number]["stores"]> {
  return Object.assign({}, ...bundles.map((b) => b.stores));
}

/**
 * Every bundle's transfer kinds, in write order: the bundles in the adapter's order (workspaces,
 * with identities, first: every other module's objects name a workspace or a person).
 */
export function transferOf(bundles: readonly StoreBundle<object>[]): StoreTransfer {
  return composeTransfer(bundles.map((b) => b.transfer));
}
