import type { Collection, Db } from "mongodb";
import type { UnsubscribeDoc } from "./unsubscribe-store.ts";

/** Mail's collections of one database (their indexes: indexes.ts). */
export interface MailCollections {
  unsubscribes: Collection<UnsubscribeDoc>;
}

export const MAIL_COLLECTION_NAMES = {
  unsubscribes: "mail_unsubscribes",
} as const;

export function mailCollections(db: Db): MailCollections {
  return { unsubscribes: db.collection<UnsubscribeDoc>(MAIL_COLLECTION_NAMES.unsubscribes) };
}
