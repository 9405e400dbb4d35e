import { type Static, Type } from "@sinclair/typebox";
import { jobKind } from "../jobs/mod.ts";
import { MAIL_LISTS, type MailList } from "./model.ts";
import {
  composeMail,
  type MailContent,
  memberAddedContent,
  noteSharedContent,
  offerIssuedContent,
  paymentFailedContent,
} from "./messages.ts";
import type { MailDeps, MailSettings } from "./ports.ts";
import { unsubscribeToken } from "./unsubscribe-token.ts";

/** Attempts of one message before it is given up (the first and three retries). */
export const MAIL_ATTEMPTS = 4;
/** The wait before retry n (1-based): 2 s, 8 s, 32 s. */
export const mailRetryDelayMs = (attempt: number) => 2_000 * 4 ** (attempt - 1);

const Text = (maxLength: number) => Type.String({ maxLength });
const Nullable = (maxLength: number) => Type.Union([Text(maxLength), Type.Null()]);

const MemberAdded = Type.Object({
  template: Type.Literal("member_added"),
  workspace_name: Text(200),
  workspace_slug: Text(100),
  role: Text(20),
  added_by: Nullable(320),
}, { additionalProperties: false });

const NoteShared = Type.Object({
  template: Type.Literal("note_shared"),
  workspace_name: Text(200),
  workspace_slug: Text(100),
  topic_title: Text(500),
  topic_slug: Text(200),
  shared_by: Nullable(320),
  message: Nullable(2000),
}, { additionalProperties: false });

const PaymentFailed = Type.Object({
  template: Type.Literal("payment_failed"),
  workspace_name: Text(200),
  workspace_slug: Text(100),
  plan: Text(20),
}, { additionalProperties: false });

const OfferIssued = Type.Object({
  template: Type.Literal("offer_issued"),
  workspace_name: Text(200),
  workspace_slug: Text(100),
  offer_id: Text(100),
  plan: Text(20),
  amount: Type.Integer({ minimum: 0 }),
  currency: Text(10),
  interval: Text(10),
  term_months: Type.Integer({ minimum: 1 }),
  radar_credits: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  expires_at: Text(40),
  revision: Type.Integer({ minimum: 1 }),
}, { additionalProperties: false });

/**
 * One message to one person. The facts are in the payload (written when the event happened), so a
 * retry says the same; whether the person left the list is checked when it is sent.
 */
export const MailSendPayload = Type.Object({
  /** What makes this message itself: its event (`member:<id>`, `share:<id>`, `offer:<id>`); equal ones collapse. */
  ref: Type.String({ minLength: 1, maxLength: 200 }),
  identity_id: Type.String({ minLength: 1, maxLength: 100 }),
  to: Type.String({ minLength: 3, maxLength: 320, pattern: "^[^\\s@]+@[^\\s@]+$" }),
  list: Type.Union(MAIL_LISTS.map((l) => Type.Literal(l))),
  attempt: Type.Integer({ minimum: 1, maximum: MAIL_ATTEMPTS }),
  content: Type.Union([MemberAdded, NoteShared, PaymentFailed, OfferIssued]),
}, { additionalProperties: false });
export type MailSendPayload = Static<typeof MailSendPayload>;

export const mailSendJob = jobKind({
  name: "mail.send",
  payload: MailSendPayload,
  dedupKey: (p) => `${p.ref}:${p.identity_id}:${p.attempt}`,
});

function contentOf(p: MailSendPayload, publicUrl: string): MailContent {
  const c = p.content;
  switch (c.template) {
    case "member_added":
      return memberAddedContent(c, publicUrl);
    case "note_shared":
      return noteSharedContent(c, publicUrl);
    case "payment_failed":
      return paymentFailedContent(c, publicUrl);
    case "offer_issued":
      return offerIssuedContent(c, publicUrl);
  }
}

/** The unsubscribe link of a person and list: `{PUBLIC_URL}/api/v1/email/unsubscribe?token=…`. */
export async function unsubscribeUrl(settings: MailSettings, identityId: string, list: MailList): Promise<string> {
  return `${settings.publicUrl}/api/v1/email/unsubscribe?token=${unsubscribeToken(settings.secret, identityId, list)}`;
}

export type MailOutcome = "sent" | "unsubscribed" | "retrying" | "no_mailer";

/**
 * Sends one queued message, unless its person left its list. A failed send is queued again
 * after a growing delay (attempts 2 to MAIL_ATTEMPTS) and this job ends well, so every queue
 * retries the same way (the in-process queue does not retry by itself); the last failure throws
 * (the queue logs it).
 */
export async function runMailSend(deps: MailDeps, workspaceId: string, p: MailSendPayload): Promise<MailOutcome> {
  const settings = deps.mail;
  if (!settings) return "no_mailer";
  if (await deps.stores.unsubscribes.has(p.identity_id, p.list)) return "unsubscribed";
  const mail = composeMail(p.to, p.list, contentOf(p, settings.publicUrl), await unsubscribeUrl(settings, p.identity_id, p.list));
  try {
    await settings.mailer.send(mail);
    return "sent";
  } catch (e) {
    if (p.attempt >= MAIL_ATTEMPTS || !deps.jobs) throw e;
    await deps.jobs.enqueue(mailSendJob, workspaceId, { ...p, attempt: p.attempt + 1 }, { delayMs: mailRetryDelayMs(p.attempt) });
    return "retrying";
  }
}

/**
 * Queues a message (or, with no queue, sends it at once). Never fails the use case that asked:
 * mail is a consequence, not a part, of adding a member or sharing a note.
 */
export async function queueMail(deps: MailDeps, workspaceId: string, p: Omit<MailSendPayload, "attempt">): Promise<void> {
  if (!deps.mail) return;
  try {
    if (await deps.stores.unsubscribes.has(p.identity_id, p.list)) return;
    const payload = { ...p, attempt: 1 };
    if (deps.jobs) await deps.jobs.enqueue(mailSendJob, workspaceId, payload);
    else await runMailSend(deps, workspaceId, payload);
  } catch {
    // A store or queue outage loses this notice; the action itself stands.
  }
}
