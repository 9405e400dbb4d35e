import type { EventBus } from "../events/mod.ts";
import type { JobQueue } from "../jobs/mod.ts";
import type { Clock } from "./clock.ts";

/** Seals secrets at rest (API keys): access's `createSecretBox` is the Web Crypto one. */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/**
 * What every use case is given: the stores, the clock, the box that seals secrets, and where events
 * and background work go. `S` is the part of the stores a use case may touch: each module types
 * its use cases with its own bundle and the bundles it reads (e.g. `CoreDeps<TopicStores &
 * WorkspaceStores>`, ADR 019), so tsc refuses a use case that reaches into a store it did not
 * declare. Providers, settings and hooks are a module's own: its deps type adds them (`RadarDeps`,
 * `BillingDeps`, …; ADR 066). A host passes one object that satisfies every module's deps type
 * (core/deps.ts's `ComposedDeps`).
 */
export interface CoreDeps<S> {
  stores: S;
  clock: Clock;
  secretBox: SecretBox;
  /** Where use cases publish workspace events (the live stream); none means they are not published. */
  events?: EventBus;
  /** Where use cases queue background work (run by workers/); without it, that work runs inline. */
  jobs?: JobQueue;
}
