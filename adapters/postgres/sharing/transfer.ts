import { SHARING_TRANSFER_KINDS as K } from "../../../core/sharing/transfer.ts";
import type { NoteShare } from "../../../core/sharing/model.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { iso, isoOrNull, type SqlDriver } from "../driver.ts";
import { str, strOrNull } from "../row-values.ts";
import { RECORDS, sqlTenantKind } from "../topics/mod.ts";
import { LINK_COLUMNS, toLink } from "./share-link-store.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;
const SHARE_COLUMNS = "workspace_id, id, topic_id, recipient_member_id, sender_id, message, created_at, read_at";

/** Sharing's kinds on PostgreSQL/PGlite (core/sharing/transfer.ts). */
export function sqlSharingTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlTenantKind(db, K.shareLinks, {
      table: "share_links",
      keyColumns: ["topic_id"],
      columns: LINK_COLUMNS.join(", "),
      toDoc: (r) => asDoc(toLink(r)),
      // A token hash another link holds (unique) is skipped like a held key.
      write: async (tx, docs) =>
        (await tx.query(
          `insert into share_links (${LINK_COLUMNS.join(", ")})
           select x.id, x.workspace_id, x.topic_id, x.token_hash, x.created_by, x.created_at
           from ${RECORDS} as x (id uuid, workspace_id uuid, topic_id uuid, token_hash text, created_by uuid, created_at timestamptz)
           on conflict do nothing returning id`,
          [JSON.stringify(docs)],
        )).length,
    }),
    sqlTenantKind(db, K.noteShares, {
      table: "note_shares",
      keyColumns: ["id"],
      columns: SHARE_COLUMNS,
      toDoc: (r) => {
        const s: NoteShare = {
          id: str(r.id),
          workspace_id: str(r.workspace_id),
          topic_id: str(r.topic_id),
          recipient_member_id: str(r.recipient_member_id),
          sender_id: strOrNull(r.sender_id),
          message: strOrNull(r.message),
          created_at: iso(r.created_at),
          read_at: isoOrNull(r.read_at),
        };
        return asDoc(s);
      },
      write: async (tx, docs) =>
        (await tx.query(
          `insert into note_shares (${SHARE_COLUMNS})
           select x.workspace_id, x.id, x.topic_id, x.recipient_member_id, x.sender_id, x.message, x.created_at, x.read_at
           from ${RECORDS} as x (workspace_id uuid, id uuid, topic_id uuid, recipient_member_id uuid, sender_id uuid,
             message text, created_at timestamptz, read_at timestamptz)
           on conflict do nothing returning id`,
          [JSON.stringify(docs)],
        )).length,
    }),
  ];
}
