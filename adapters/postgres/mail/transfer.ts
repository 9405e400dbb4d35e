import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { MailList } from "../../../core/mail/model.ts";
import { MAIL_KINDS, type UnsubscribeDoc } from "../../../core/mail/transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { str } from "../row-values.ts";
import { plainColumns, sqlKind } from "../transfer-kind.ts";

/** Mail's kinds over `mail_unsubscribes` (migration 016). */
export function sqlMailTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind<UnsubscribeDoc>(db, {
      spec: MAIL_KINDS.unsubscribes,
      table: "mail_unsubscribes",
      select: "t.identity_id, t.list, t.unsubscribed_at",
      toDoc: (r) => ({ identity_id: str(r.identity_id), list: str(r.list) as MailList, unsubscribed_at: iso(r.unsubscribed_at) }),
      keyColumns: [{ name: "identity_id", text: false }, { name: "list", text: true }],
      columns: plainColumns<UnsubscribeDoc>("identity_id", "list", "unsubscribed_at"),
    }),
  ];
}
