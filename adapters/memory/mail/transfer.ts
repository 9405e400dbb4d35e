import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { MailList } from "../../../core/mail/model.ts";
import { MAIL_KINDS, type UnsubscribeDoc } from "../../../core/mail/transfer.ts";
import { memoryKind } from "../transfer-kind.ts";
import type { MailTables } from "./tables.ts";

/** Mail's kinds on the memory adapter (keys `<identity_id>:<list>`; a list name holds no colon). */
export function memoryMailTransfer(t: MailTables): TransferKind[] {
  return [
    memoryKind<UnsubscribeDoc>({
      spec: MAIL_KINDS.unsubscribes,
      docs: () =>
        [...t.unsubscribes].map(([key, at]) => {
          const cut = key.lastIndexOf(":");
          return { identity_id: key.slice(0, cut), list: key.slice(cut + 1) as MailList, unsubscribed_at: at };
        }),
      has: (d) => t.unsubscribes.has(`${d.identity_id}:${d.list}`),
      put: (d) => void t.unsubscribes.set(`${d.identity_id}:${d.list}`, d.unsubscribed_at),
    }),
  ];
}
