import type { BillingDeps } from "./billing/mod.ts";
import type { CodeContextDeps } from "./code-context/mod.ts";
import type { CollectionDeps } from "./collections/mod.ts";
import type { ContactDeps } from "./contacts/mod.ts";
import type { CoreDeps } from "./kernel/deps.ts";
import type { MailDeps } from "./mail/mod.ts";
import type { OfferDeps } from "./offers/mod.ts";
import type { RadarDeps } from "./radar/mod.ts";
import type { SharingDeps } from "./sharing/mod.ts";
import type { Stores } from "./stores.ts";
import type { TopicDeps } from "./topics/mod.ts";
import type { WorkspaceDeps } from "./workspaces/mod.ts";

/** A module's own part of its deps type: what it adds to the kernel's `CoreDeps` (providers, settings, hooks). */
type Own<D> = Omit<D, keyof CoreDeps<unknown>>;

/**
 * What a host gives core (server/compose.ts, the tests' app): every store, the kernel's deps, and
 * each module's own providers, settings and hooks (ADR 066). One object satisfies every module's
 * deps type; modules never import this file, only the kernel's `CoreDeps<S>` and their own deps.
 */
export type ComposedDeps =
  & CoreDeps<Stores>
  & Own<WorkspaceDeps>
  & Own<TopicDeps>
  & Own<CodeContextDeps>
  & Own<SharingDeps>
  & Own<CollectionDeps>
  & Own<ContactDeps>
  & Own<RadarDeps>
  & Own<BillingDeps>
  & Own<OfferDeps>
  & Own<MailDeps>;
