import { CODE_CONTEXT_TRANSFER_KINDS as K, type DeliveryDoc } from "../../../core/code-context/transfer.ts";
import type { RepoIndex } from "../../../core/code-context/ports.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { str } from "../row-values.ts";
import { RECORDS, sqlTenantKind, textArray } from "../topics/mod.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/** Code context's kinds on PostgreSQL/PGlite (core/code-context/transfer.ts). */
export function sqlCodeContextTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlTenantKind(db, K.repoIndexes, {
      table: "repo_indexes",
      keyColumns: ["repo_id"],
      columns: "workspace_id, repo_id, commit_sha, files, refreshed_at",
      toDoc: (r) => {
        const i: RepoIndex = {
          workspace_id: str(r.workspace_id),
          repo_id: str(r.repo_id),
          commit: str(r.commit_sha),
          files: [...(r.files as string[])],
          refreshed_at: iso(r.refreshed_at),
        };
        return asDoc(i);
      },
      // `file_count` is derived from the list, as `put` writes it.
      write: async (tx, docs) =>
        (await tx.query(
          `insert into repo_indexes (workspace_id, repo_id, commit_sha, files, file_count, refreshed_at)
           select x.workspace_id, x.repo_id, x.commit, ${textArray("x.files")}, jsonb_array_length(x.files), x.refreshed_at
           from ${RECORDS} as x (workspace_id uuid, repo_id uuid, commit text, files jsonb, refreshed_at timestamptz)
           on conflict do nothing returning repo_id`,
          [JSON.stringify(docs)],
        )).length,
    }),
    sqlTenantKind(db, K.deliveries, {
      table: "retrieval_deliveries",
      keyColumns: [`session_id collate "C"`, "topic_id"],
      columns: "workspace_id, session_id, topic_id, version, delivered_at",
      toDoc: (r) => {
        const d: DeliveryDoc = {
          workspace_id: str(r.workspace_id),
          session_id: str(r.session_id),
          topic_id: str(r.topic_id),
          version: Number(r.version),
          delivered_at: iso(r.delivered_at),
        };
        return asDoc(d);
      },
      write: async (tx, docs) =>
        (await tx.query(
          `insert into retrieval_deliveries (workspace_id, session_id, topic_id, version, delivered_at)
           select x.workspace_id, x.session_id, x.topic_id, x.version, x.delivered_at
           from ${RECORDS} as x (workspace_id uuid, session_id text, topic_id uuid, version int, delivered_at timestamptz)
           on conflict do nothing returning topic_id`,
          [JSON.stringify(docs)],
        )).length,
    }),
  ];
}
