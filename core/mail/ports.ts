import type { CoreDeps } from "../kernel/deps.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { MailList } from "./model.ts";
import type { OutgoingMail } from "./model.ts";

/**
 * Sends mail (adapters/mail/: `.eml` files in an outbox by default, SMTP with nodemailer). A
 * throw is a failed attempt: the `mail.send` job tries again later.
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Who left which list. Global, not tenant data: a person leaves "membership" mail of every
 * workspace at once, keyed by (identity_id, list).
 */
export interface UnsubscribeStore {
  /** Records that the person left the list; idempotent: true the first time, false after. */
  add(identityId: string, list: MailList, at: string): Promise<boolean>;
  has(identityId: string, list: MailList): Promise<boolean>;
}

/** Mail's stores, one bundle per adapter (adapters/<adapter>/mail/). */
export interface MailStores {
  unsubscribes: UnsubscribeStore;
}

/**
 * How a host sends mail: the mailer, the public origin links in mail start with (PUBLIC_URL), and
 * the server secret unsubscribe tokens are derived from (SECRET_KEY).
 */
export interface MailSettings {
  mailer: Mailer;
  publicUrl: string;
  secret: string;
}

/** What mail's use cases need: its stores and the workspaces' (to find people and workspaces). */
export type MailDeps = CoreDeps<MailStores & WorkspaceStores> & {
  /** How mail is sent (mailer, PUBLIC_URL, the secret of unsubscribe tokens); without it, no mail. */
  mail?: MailSettings;
};
