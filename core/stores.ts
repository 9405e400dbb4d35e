import type { ApiKeyStore } from "./access/ports.ts";
import type { TagStore, TopicStore } from "./topics/ports.ts";
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
  status(): Promise<StoreStatus>;
  close(): Promise<void>;
}
