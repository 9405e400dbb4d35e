import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { MAIL_KINDS, type UnsubscribeDoc } from "../../../core/mail/transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import type { MailCollections } from "./collections.ts";

/** Mail's kinds over `mail_unsubscribes`: `_id` `<identity_id>:<list>` sorts as the key (a uuid is of fixed length). */
export function mongoMailTransfer(c: MailCollections): TransferKind[] {
  return [
    mongoKind({
      spec: MAIL_KINDS.unsubscribes,
      collection: c.unsubscribes,
      keyFields: ["_id"],
      toDocs: async (page) =>
        page.map((d): UnsubscribeDoc => ({ identity_id: d.identity_id, list: d.list, unsubscribed_at: d.unsubscribed_at })),
      write: async (docs: UnsubscribeDoc[]) =>
        (await insertMissing(c.unsubscribes, docs.map((d) => ({ _id: `${d.identity_id}:${d.list}`, ...d })))).length,
    }),
  ];
}
