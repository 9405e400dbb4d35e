import {
  CREDIT_TRANSFER_KINDS as K,
  idempotencyDoc,
  idempotencyFromDoc,
  ledgerEntryDoc,
  ledgerEntryFromDoc,
} from "../../../core/credits/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { mongoTenantKind } from "../transfer-docs.ts";
import type { CreditCollections } from "./collections.ts";
import { type CreditEntryDoc, entryDoc, fromEntryDoc, type IdempotencyDoc } from "./documents.ts";

const toStoredEntries = async (docs: readonly TransferDoc[]): Promise<CreditEntryDoc[]> =>
  docs.map((d) => {
    const { workspaceId, entry } = ledgerEntryFromDoc(d);
    return entryDoc(workspaceId, entry);
  });

/**
 * Credits' kinds over MongoDB (core/credits/transfer.ts). The ledger's entries go in under their
 * own `_id` `<workspace_id>:<seq>`: the chain the ledger store walks (credit-ledger-store.ts) is
 * then the copied one, and its next append inserts seq n + 1. There is no account document to
 * keep. Imported history has a collection of its own that nothing counts.
 */
export function mongoCreditTransfer(c: CreditCollections): TransferKind[] {
  return [
    mongoTenantKind({
      ...K.ledgerEntries,
      collection: c.creditEntries,
      sort: { workspace_id: 1, seq: 1 },
      toDoc: (d) => ledgerEntryDoc(d.workspace_id, fromEntryDoc(d)),
      toStored: toStoredEntries,
    }),
    mongoTenantKind({
      ...K.importedEntries,
      collection: c.importedCreditEntries,
      sort: { workspace_id: 1, seq: 1 },
      toDoc: (d) => ledgerEntryDoc(d.workspace_id, fromEntryDoc(d)),
      toStored: toStoredEntries,
    }),
    mongoTenantKind({
      ...K.idempotency,
      collection: c.idempotencyKeys,
      sort: { workspace_id: 1, scope: 1, key: 1 },
      toDoc: (d) =>
        idempotencyDoc({
          workspace_id: d.workspace_id,
          scope: d.scope,
          key: d.key,
          fingerprint: d.fingerprint,
          state: d.state,
          status: d.status ?? null,
          body: typeof d.body === "string" ? JSON.parse(d.body) : null,
          created_at: d.created_at,
          expires_at: d.expires_at,
        }),
      toStored: async (docs) =>
        docs.map((d): IdempotencyDoc => {
          const r = idempotencyFromDoc(d);
          return {
            _id: JSON.stringify([r.workspace_id, r.scope, r.key]),
            workspace_id: r.workspace_id,
            scope: r.scope,
            key: r.key,
            fingerprint: r.fingerprint,
            state: r.state,
            status: r.status,
            body: r.body === null ? null : JSON.stringify(r.body),
            created_at: r.created_at,
            expires_at: r.expires_at,
          };
        }),
    }),
  ];
}
