import type { IndexDescription } from "mongodb";
import type { MAIL_COLLECTION_NAMES } from "./collections.ts";

/** Mail's indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const MAIL_INDEXES: Record<keyof typeof MAIL_COLLECTION_NAMES, IndexDescription[]> = {
  // Global, a person's: `_id` is `<identity_id>:<list>` (the add is its insert); no other lookup.
  unsubscribes: [],
};
