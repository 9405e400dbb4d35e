import type { ApiKeyStore } from "./access/mod.ts";
import type { CollectionStore, EntityStore, RecordStore } from "./collections/mod.ts";
import type { ProposalStore, RelationStore, TagStore, TopicStore } from "./topics/mod.ts";
import type { RepoIndexStore, RetrievalLedger } from "./code-context/mod.ts";
import type { WebhookDeliveryStore } from "./webhooks/mod.ts";
import type { NoteShareStore, ShareLinkStore } from "./sharing/mod.ts";
import type { AreaStore, IdentityStore, MemberStore, RepoStore, WorkspaceStore } from "./workspaces/mod.ts";

export interface StoreStatus {
  /** e.g. `memory`, `pglite`, `postgres` */
  kind: string;
  ok: boolean;
  latency_ms: number;
}

/** Every store port, as one adapter provides them. */
export interface Stores {
  workspaces: WorkspaceStore;
  identities: IdentityStore;
  members: MemberStore;
  apiKeys: ApiKeyStore;
  areas: AreaStore;
  repos: RepoStore;
  topics: TopicStore;
  tags: TagStore;
  proposals: ProposalStore;
  relations: RelationStore;
  shareLinks: ShareLinkStore;
  noteShares: NoteShareStore;
  repoIndex: RepoIndexStore;
  retrievals: RetrievalLedger;
  webhookDeliveries: WebhookDeliveryStore;
  collections: CollectionStore;
  records: RecordStore;
  entities: EntityStore;
  status(): Promise<StoreStatus>;
  close(): Promise<void>;
}
