import { CODE_CONTEXT_TRANSFER_KINDS as K, type DeliveryDoc as DeliveryTransferDoc } from "../../../core/code-context/transfer.ts";
import type { RepoIndex } from "../../../core/code-context/ports.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { mongoTenantKind } from "../topics/mod.ts";
import type { CodeContextCollections } from "./collections.ts";
import type { RepoIndexDoc } from "./repo-index-store.ts";
import type { DeliveryDoc } from "./retrieval-ledger.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/** Code context's kinds on MongoDB (core/code-context/transfer.ts). */
export function mongoCodeContextTransfer(c: CodeContextCollections): TransferKind[] {
  return [
    mongoTenantKind(K.repoIndexes, c.repoIndexes, {
      sort: { _id: 1 },
      toDoc: (d) =>
        asDoc<RepoIndex>({ workspace_id: d.workspace_id, repo_id: d._id, commit: d.commit, files: d.files, refreshed_at: d.refreshed_at }),
      stored: (doc): RepoIndexDoc => {
        const i = doc as unknown as RepoIndex;
        return {
          _id: i.repo_id,
          workspace_id: i.workspace_id,
          commit: i.commit,
          files: i.files,
          file_count: i.files.length,
          refreshed_at: i.refreshed_at,
        };
      },
    }),
    mongoTenantKind(K.deliveries, c.retrievalDeliveries, {
      sort: { workspace_id: 1, session_id: 1, topic_id: 1 },
      toDoc: (d) =>
        asDoc<DeliveryTransferDoc>({
          workspace_id: d.workspace_id,
          session_id: d.session_id,
          topic_id: d.topic_id,
          version: d.version,
          delivered_at: d.delivered_at,
        }),
      stored: (doc): DeliveryDoc => {
        const d = doc as unknown as DeliveryTransferDoc;
        return { _id: `${d.workspace_id}:${d.session_id}:${d.topic_id}`, ...d };
      },
    }),
  ];
}
