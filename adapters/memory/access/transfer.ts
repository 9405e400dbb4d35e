import type { ApiKeyRecord } from "../../../core/access/model.ts";
import { ACCESS_TRANSFER_KINDS as K } from "../../../core/access/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { memoryKind } from "../workspaces/mod.ts";
import type { AccessTables } from "./tables.ts";

/** Access's kind over the memory tables: keys as stored, hash index kept (core/access/transfer.ts). */
export function memoryAccessTransfer(t: AccessTables): TransferKind[] {
  return [
    memoryKind(K.apiKeys, () => t.apiKeys.values(), (k) => k as unknown as TransferDoc, (d) => {
      const k = d as unknown as ApiKeyRecord;
      if (t.apiKeys.has(k.id) || t.apiKeyIdByHash.has(k.key_hash)) return false;
      t.apiKeys.set(k.id, k);
      t.apiKeyIdByHash.set(k.key_hash, k.id);
      return true;
    }),
  ];
}
