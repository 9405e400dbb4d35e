import type { ApiKeyRecord } from "../../../core/access/model.ts";
import { ACCESS_TRANSFER_KINDS as K } from "../../../core/access/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { mongoKind } from "../workspaces/mod.ts";
import type { AccessCollections } from "./collections.ts";
import { apiKeyDoc, toApiKey } from "./documents.ts";

/** Access's kind on MongoDB: keys as stored; a taken hash (its unique index) is left alone. */
export function mongoAccessTransfer(c: AccessCollections): TransferKind[] {
  return [
    mongoKind({
      ...K.apiKeys,
      coll: c.apiKeys,
      toDocs: async (page) => page.map((d) => toApiKey(d) as unknown as TransferDoc),
      toStored: (doc) => apiKeyDoc(doc as unknown as ApiKeyRecord),
    }),
  ];
}
