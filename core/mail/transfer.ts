import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";
import type { MailList } from "./model.ts";

/** Mail's kinds as they move between stores (ADR 067): who left which list, a person's (no workspace's). */
export const MAIL_KINDS = {
  unsubscribes: { name: "mail.unsubscribes", tenant: false, key: ["identity_id", "list"] },
} as const satisfies Record<string, TransferKindSpec>;

/** That a person left a list, and when. */
export interface UnsubscribeDoc {
  identity_id: string;
  list: MailList;
  unsubscribed_at: string;
}
