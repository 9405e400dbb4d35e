import type { Collection, Db } from "mongodb";
import type { SupportConversationDoc, SupportEventDoc } from "./documents.ts";

/** Support's collections of one database (their indexes: indexes.ts). */
export interface SupportCollections {
  supportEvents: Collection<SupportEventDoc>;
  supportConversations: Collection<SupportConversationDoc>;
}

export const SUPPORT_COLLECTION_NAMES = {
  supportEvents: "support_events",
  supportConversations: "support_conversations",
} as const;

export function supportCollections(db: Db): SupportCollections {
  return {
    supportEvents: db.collection<SupportEventDoc>(SUPPORT_COLLECTION_NAMES.supportEvents),
    supportConversations: db.collection<SupportConversationDoc>(SUPPORT_COLLECTION_NAMES.supportConversations),
  };
}
