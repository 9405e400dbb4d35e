import type { Collection, Db } from "mongodb";
import type { ApiKeyDoc } from "./documents.ts";

/** Access's collections of one database (their indexes: indexes.ts). */
export interface AccessCollections {
  apiKeys: Collection<ApiKeyDoc>;
}

export const ACCESS_COLLECTION_NAMES = {
  apiKeys: "api_keys",
} as const;

export function accessCollections(db: Db): AccessCollections {
  return {
    apiKeys: db.collection<ApiKeyDoc>(ACCESS_COLLECTION_NAMES.apiKeys),
  };
}
