import type { KeyHasher } from "./access/api-key.ts";
import type { SecretBox } from "./access/secret-box.ts";
import type { EventBus } from "./events/ports.ts";
import type { Clock } from "./kernel/clock.ts";
import type { Stores } from "./stores.ts";

/** What every use case is given: the stores, the clock, and the box that seals secrets. */
export interface CoreDeps {
  stores: Stores;
  clock: Clock;
  secretBox: SecretBox;
  /**
   * SHA-256 hex of a raw API key; defaults to Web Crypto (`hashRawKey`). Hashing runs on every
   * authenticated request, so a host runtime may pass its native synchronous digest.
   */
  keyHasher?: KeyHasher;
  /** Where use cases publish workspace events (the live stream); none means they are not published. */
  events?: EventBus;
}
