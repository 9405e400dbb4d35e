import type { ApiKeyStore } from "./access/ports.ts";
import type { CollectionStore, EntityStore, RecordStore } from "./collections/ports.ts";
import type { ProposalStore, RelationStore, TagStore, TopicStore } from "./topics/ports.ts";
import type { RepoIndexStore, RetrievalLedger } from "./code-context/ports.ts";
import type { WebhookDeliveryStore } from "./webhooks/ports.ts";
import type { NoteShareStore, ShareLinkStore } from "./sharing/ports.ts";
import type { AreaStore, IdentityStore, MemberStore, RepoStore, WorkspaceStore } from "./workspaces/ports.ts";

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
