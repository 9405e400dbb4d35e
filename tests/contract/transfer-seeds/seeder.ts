import type { Stores } from "../../../core/stores.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import type { TestApi } from "../kit/test-api.ts";

/**
 * What a module adds to the transfer contract (transfer-stores.contract.ts): objects of each of
 * its kinds written through the module's own store methods (so the stores' derived data exists
 * on the source), and what a copy of them must still do through the same methods on the target.
 */
export interface TransferSeeder {
  /** The module, as the prefix of its kinds' names (`topics` for `topics.topics`). */
  module: string;
  /**
   * Writes at least one object of every kind of the module into `ws` (bootstrapped through `s`),
   * with awkward values where the kind allows them (Unicode, empty lists, nulls, large numbers).
   */
  seed(s: Stores, ws: BootstrapBundle): Promise<void>;
  /**
   * Checks through the module's store methods (not `transfer`) that `target`, a copy of `source`,
   * serves the seeded objects as `source` does: lookups, searches, derived lists and counters.
   */
  verify(source: Stores, target: Stores, ws: BootstrapBundle, expect: TestApi["expect"]): Promise<void>;
}
