import type { Stores } from "../../core/stores.ts";
import { storesOf, transferOf } from "../store-bundle.ts";
import { memoryAccessBundle } from "./access/bundle.ts";
import { AccessTables } from "./access/tables.ts";
import { memoryBillingBundle } from "./billing/bundle.ts";
import { BillingTables } from "./billing/tables.ts";
import { memoryCodeContextBundle } from "./code-context/bundle.ts";
import { CodeContextTables } from "./code-context/tables.ts";
import { memoryCollectionBundle } from "./collections/bundle.ts";
import { CollectionTables } from "./collections/tables.ts";
import { memoryContactBundle } from "./contacts/bundle.ts";
import { ContactTables } from "./contacts/tables.ts";
import { memoryCreditBundle } from "./credits/bundle.ts";
import { CreditTables } from "./credits/tables.ts";
import { memoryRadarBundle } from "./radar/bundle.ts";
import { memoryIdentityBundle } from "./identity/bundle.ts";
import { IdentityTables } from "./identity/tables.ts";
import { JobTables, memoryJobBundle } from "./jobs/bundle.ts";
import { RadarTables } from "./radar/tables.ts";
import { memorySharingBundle } from "./sharing/bundle.ts";
import { SharingTables } from "./sharing/tables.ts";
import { memoryTopicBundle } from "./topics/bundle.ts";
import { TopicTables } from "./topics/tables.ts";
import { memoryWebhookBundle } from "./webhooks/bundle.ts";
import { WebhookTables } from "./webhooks/tables.ts";
import { memoryWorkspaceBundle } from "./workspaces/bundle.ts";
import { WorkspaceTables } from "./workspaces/tables.ts";
import { memoryMailBundle } from "./mail/bundle.ts";
import { MailTables } from "./mail/tables.ts";
import { memoryOfferBundle } from "./offers/bundle.ts";
import { OfferTables } from "./offers/tables.ts";
import { memorySupportBundle } from "./support-desk/bundle.ts";
import { SupportTables } from "./support-desk/tables.ts";

/**
 * The reference implementation of every store port: no database, nothing kept across restarts.
 * Used to embed core without infrastructure and as the baseline of the contract suites.
 *
 * One bundle per module (ADR 019), over one object holding every module's tables; deleting a
 * workspace runs every bundle's purge. A new module adds its tables and its bundle here.
 */
export function createMemoryStores(): Stores {
  const t = {
    ...new WorkspaceTables(),
    ...new AccessTables(),
    ...new TopicTables(),
    ...new CodeContextTables(),
    ...new SharingTables(),
    ...new CollectionTables(),
    ...new WebhookTables(),
    ...new CreditTables(),
    ...new RadarTables(),
    ...new ContactTables(),
    ...new JobTables(),
    ...new IdentityTables(),
    ...new MailTables(),
    ...new BillingTables(),
    ...new OfferTables(),
    ...new SupportTables(),
  };
  const collections = memoryCollectionBundle(t);
  const bundles = [
    memoryWorkspaceBundle(t, (id) => {
      for (const b of bundles) b.purgeWorkspace(id);
    }),
    memoryAccessBundle(t),
    memoryTopicBundle(t),
    memoryCodeContextBundle(t),
    memorySharingBundle(t),
    collections,
    memoryWebhookBundle(t),
    memoryCreditBundle(t),
    memoryRadarBundle(t),
    memoryContactBundle(t, collections.stores),
    memoryJobBundle(t),
    memoryIdentityBundle(t),
    memoryMailBundle(t),
    memoryBillingBundle(t),
    memoryOfferBundle(t),
    memorySupportBundle(t),
  ] as const;
  return {
    ...storesOf(bundles),
    transfer: transferOf(bundles),
    status: async () => ({ kind: "memory", ok: true, latency_ms: 0 }),
    close: async () => {},
  };
}
