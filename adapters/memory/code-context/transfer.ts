import { CODE_CONTEXT_TRANSFER_KINDS as K, type DeliveryDoc } from "../../../core/code-context/transfer.ts";
import type { RepoIndex } from "../../../core/code-context/ports.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { asTransferDoc, memoryTenantKind } from "../topics/mod.ts";
import { deliveryKey } from "./retrieval-ledger.ts";
import type { CodeContextTables } from "./tables.ts";

/** Code context's kinds over the memory tables (core/code-context/transfer.ts). */
export function memoryCodeContextTransfer(t: CodeContextTables): TransferKind[] {
  return [
    memoryTenantKind(K.repoIndexes, () => [...t.repoIndexes.values()].map(asTransferDoc), (d) => {
      const i = d as unknown as RepoIndex;
      if (t.repoIndexes.has(i.repo_id)) return false;
      t.repoIndexes.set(i.repo_id, i);
      return true;
    }),
    memoryTenantKind(K.deliveries, () => {
      const out: DeliveryDoc[] = [];
      for (const [key, d] of t.deliveries) {
        const [, session_id, topic_id] = key.split("\u0000");
        out.push({ workspace_id: d.workspace_id, session_id: session_id!, topic_id: topic_id!, version: d.version, delivered_at: d.at });
      }
      return out.map(asTransferDoc);
    }, (doc) => {
      const d = doc as unknown as DeliveryDoc;
      const key = deliveryKey(d.workspace_id, d.session_id, d.topic_id);
      if (t.deliveries.has(key)) return false;
      t.deliveries.set(key, { workspace_id: d.workspace_id, version: d.version, at: d.delivered_at });
      return true;
    }),
  ];
}
