import type { Stores } from "../../core/stores.ts";
import { MemoryApiKeyStore } from "./access/api-key-store.ts";
import { MemoryAreaStore } from "./workspaces/area-store.ts";
import { MemoryIdentityStore } from "./workspaces/identity-store.ts";
import { MemoryMemberStore } from "./workspaces/member-store.ts";
import { MemoryRepoStore } from "./workspaces/repo-store.ts";
import { MemoryRepoIndexStore } from "./code-context/repo-index-store.ts";
import { MemoryWebhookDeliveryStore } from "./webhooks/webhook-delivery-store.ts";
import { MemoryRetrievalLedger } from "./code-context/retrieval-ledger.ts";
import { MemoryNoteShareStore } from "./sharing/note-share-store.ts";
import { MemoryShareLinkStore } from "./sharing/share-link-store.ts";
import { MemoryProposalStore } from "./topics/proposal-store.ts";
import { MemoryRelationStore } from "./topics/relation-store.ts";
import { MemoryTagStore } from "./topics/tag-store.ts";
import { MemoryCollectionStore } from "./collections/collection-store.ts";
import { MemoryEntityStore } from "./collections/entity-store.ts";
import { MemoryRecordStore } from "./collections/record-store.ts";
import { MemoryTopicStore } from "./topics/topic-store.ts";
import { MemoryTables } from "./tables.ts";
import { MemoryWorkspaceStore } from "./workspaces/workspace-store.ts";

/**
 * The reference implementation of every store port: no database, nothing kept across restarts.
 * Used to embed core without infrastructure and as the baseline of the contract suites.
 */
export function createMemoryStores(): Stores {
  const t = new MemoryTables();
  return {
    workspaces: new MemoryWorkspaceStore(t),
    identities: new MemoryIdentityStore(t),
    members: new MemoryMemberStore(t),
    apiKeys: new MemoryApiKeyStore(t),
    areas: new MemoryAreaStore(t),
    repos: new MemoryRepoStore(t),
    topics: new MemoryTopicStore(t),
    tags: new MemoryTagStore(t),
    proposals: new MemoryProposalStore(t),
    relations: new MemoryRelationStore(t),
    shareLinks: new MemoryShareLinkStore(t),
    noteShares: new MemoryNoteShareStore(t),
    repoIndex: new MemoryRepoIndexStore(t),
    retrievals: new MemoryRetrievalLedger(t),
    webhookDeliveries: new MemoryWebhookDeliveryStore(t),
    collections: new MemoryCollectionStore(t),
    records: new MemoryRecordStore(t),
    entities: new MemoryEntityStore(t),
    status: async () => ({ kind: "memory", ok: true, latency_ms: 0 }),
    close: async () => {},
  };
}
