import type { Collection, Db } from "mongodb";
import type { UnlockDoc, UnlockEndDoc, UnlockLeaseDoc } from "./documents.ts";

/** Contacts' collections of one database (their indexes: indexes.ts); their names are those radar gave them. */
export interface ContactCollections {
  radarUnlocks: Collection<UnlockDoc>;
  radarUnlockLeases: Collection<UnlockLeaseDoc>;
  radarUnlockEnds: Collection<UnlockEndDoc>;
}

export const CONTACT_COLLECTION_NAMES = {
  radarUnlocks: "radar_contact_unlocks",
  radarUnlockLeases: "radar_unlock_leases",
  radarUnlockEnds: "radar_unlock_ends",
} as const;

export function contactCollections(db: Db): ContactCollections {
  const n = CONTACT_COLLECTION_NAMES;
  return {
    radarUnlocks: db.collection<UnlockDoc>(n.radarUnlocks),
    radarUnlockLeases: db.collection<UnlockLeaseDoc>(n.radarUnlockLeases),
    radarUnlockEnds: db.collection<UnlockEndDoc>(n.radarUnlockEnds),
  };
}
