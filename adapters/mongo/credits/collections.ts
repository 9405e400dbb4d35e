import type { Collection, Db } from "mongodb";
import type { CreditEntryDoc, IdempotencyDoc } from "./documents.ts";

/** Credits' collections of one database (their indexes: indexes.ts). */
export interface CreditCollections {
  creditEntries: Collection<CreditEntryDoc>;
  idempotencyKeys: Collection<IdempotencyDoc>;
  /** A ledger imported with an archive, as history only: nothing counts it (ADR 070). */
  importedCreditEntries: Collection<CreditEntryDoc>;
}

export const CREDIT_COLLECTION_NAMES = {
  creditEntries: "credit_entries",
  idempotencyKeys: "idempotency_keys",
  importedCreditEntries: "imported_credit_entries",
} as const;

export function creditCollections(db: Db): CreditCollections {
  return {
    creditEntries: db.collection<CreditEntryDoc>(CREDIT_COLLECTION_NAMES.creditEntries),
    idempotencyKeys: db.collection<IdempotencyDoc>(CREDIT_COLLECTION_NAMES.idempotencyKeys),
    importedCreditEntries: db.collection<CreditEntryDoc>(CREDIT_COLLECTION_NAMES.importedCreditEntries),
  };
}
