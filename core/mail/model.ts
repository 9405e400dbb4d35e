/** The lists a person may leave, one per kind of mail (each message names its list). */
export const MAIL_LISTS = ["membership", "shared_notes", "billing"] as const;
export type MailList = (typeof MAIL_LISTS)[number];

export function isMailList(s: string): s is MailList {
  return (MAIL_LISTS as readonly string[]).includes(s);
}

/** A message ready to send: the adapter adds `From`, the date and the message id. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers: `List-Unsubscribe` and `List-Unsubscribe-Post`. */
  headers: Record<string, string>;
}

/** That a person left a list: no more mail of it goes to them. */
export interface Unsubscription {
  identity_id: string;
  list: MailList;
  at: string;
}
