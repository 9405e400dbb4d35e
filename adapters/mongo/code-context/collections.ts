import type { Collection, Db } from "mongodb";
import type { RepoIndexDoc } from "./repo-index-store.ts";
import type { DeliveryDoc } from "./retrieval-ledger.ts";

/** Code context's collections of one database (their indexes: indexes.ts). */
export interface CodeContextCollections {
  repoIndexes: Collection<RepoIndexDoc>;
  retrievalDeliveries: Collection<DeliveryDoc>;
}

export const CODE_CONTEXT_COLLECTION_NAMES = {
  repoIndexes: "repo_indexes",
  retrievalDeliveries: "retrieval_deliveries",
} as const;

export function codeContextCollections(db: Db): CodeContextCollections {
  return {
    repoIndexes: db.collection<RepoIndexDoc>(CODE_CONTEXT_COLLECTION_NAMES.repoIndexes),
    retrievalDeliveries: db.collection<DeliveryDoc>(CODE_CONTEXT_COLLECTION_NAMES.retrievalDeliveries),
  };
}
