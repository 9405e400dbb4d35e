import type { AccessStores } from "./access/mod.ts";
import type { BillingStores } from "./billing/mod.ts";
import type { CodeContextStores } from "./code-context/mod.ts";
import type { CollectionStores } from "./collections/mod.ts";
import type { ContactStores } from "./contacts/mod.ts";
import type { CreditStores } from "./credits/mod.ts";
import type { IdentityStores } from "./identity/mod.ts";
import type { JobStores } from "./jobs/mod.ts";
import type { MailStores } from "./mail/mod.ts";
import type { OfferStores } from "./offers/mod.ts";
import type { RadarStores } from "./radar/mod.ts";
import type { SharingStores } from "./sharing/mod.ts";
import type { SupportStores } from "./support-desk/mod.ts";
import type { TopicStores } from "./topics/mod.ts";
import type { WebhookStores } from "./webhooks/mod.ts";
import type { WorkspaceStores } from "./workspaces/mod.ts";

import type { StoreLifecycle } from "./kernel/store-lifecycle.ts";
import type { StoreTransfer } from "./kernel/store-transfer.ts";

export type { StoreLifecycle, StoreStatus } from "./kernel/store-lifecycle.ts";

/**
 * Every store port, as one adapter provides them: the bundles each module declares in its
 * ports.ts, flat (an intersection, so `deps.stores.records` reads the same everywhere), plus the
 * lifecycle. A module's use cases type their deps with the bundles they use (ADR 019); a new
 * module adds its bundle here.
 */
export type Stores =
  & WorkspaceStores
  & AccessStores
  & TopicStores
  & CodeContextStores
  & SharingStores
  & CollectionStores
  & WebhookStores
  & CreditStores
  & RadarStores
  & ContactStores
  & JobStores
  & IdentityStores
  & MailStores
  & BillingStores
  & OfferStores
  & SupportStores
  & StoreLifecycle
  & StoreTransfers;

/**
 * What moving data needs of a whole store (issue #25, ADR 067): every module's kinds, and, where
 * the backend offers one, a snapshot to read them in.
 */
export interface StoreTransfers {
  /** Every bundle's kinds, in write order (core/kernel/store-transfer.ts). */
  readonly transfer: StoreTransfer;
  /**
   * Runs `fn` over stores that all read one moment of the database (PostgreSQL: one
   * `REPEATABLE READ READ ONLY` transaction), for as long as `fn` runs; writes through them
   * fail. Absent where the backend has none (MongoDB here, ADR 005; PGlite, whose one
   * connection it would hold): reads are then each as of their own moment.
   */
  snapshot?<T>(fn: (stores: Stores) => Promise<T>): Promise<T>;
}
