import type { Stores } from "../../core/stores.ts";
import { MemoryApiKeyStore } from "./api-key-store.ts";
import { MemoryAreaStore } from "./area-store.ts";
import { MemoryIdentityStore } from "./identity-store.ts";
import { MemoryMemberStore } from "./member-store.ts";
import { MemoryRepoStore } from "./repo-store.ts";
import { MemoryRepoIndexStore, MemoryWebhookDeliveryStore } from "./code-index-stores.ts";
import { MemoryRetrievalLedger } from "./retrieval-ledger.ts";
import { MemoryNoteShareStore, MemoryShareLinkStore } from "./share-stores.ts";
import { MemoryProposalStore, MemoryRelationStore } from "./proposal-relation-stores.ts";
import { MemoryTagStore } from "./tag-store.ts";
import { MemoryCollectionStore, MemoryEntityStore, MemoryRecordStore } from "./collection-stores.ts";
import { MemoryTopicStore } from "./topic-store.ts";
import { MemoryTables } from "./tables.ts";
import { MemoryWorkspaceStore } from "./workspace-store.ts";

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
