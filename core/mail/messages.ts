import type { MailList, OutgoingMail } from "./model.ts";

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]!);

/** What a message says, before the unsubscribe footer and headers are added. */
export interface MailContent {
  subject: string;
  /** Paragraphs of plain text; the HTML body is built from the same ones, escaped. */
  paragraphs: string[];
  /** The one link the message leads to, with its label. */
  action?: { label: string; url: string };
}

export interface MemberAddedFacts {
  workspace_name: string;
  workspace_slug: string;
  role: string;
  added_by: string | null;
}

export function memberAddedContent(f: MemberAddedFacts, publicUrl: string): MailContent {
  const by = f.added_by ? `${f.added_by} added you` : "You were added";
  return {
    subject: `You were added to ${f.workspace_name}`,
    paragraphs: [
      `${by} to the workspace "${f.workspace_name}" (${f.workspace_slug}) as ${
        f.role === "admin" || f.role === "owner" ? "an" : "a"
      } ${f.role}.`,
      "Its topics, collections and radar are open to you with an API key of that workspace.",
    ],
    action: { label: "Open the workspace", url: `${publicUrl}/api/v1/workspaces/${encodeURIComponent(f.workspace_slug)}` },
  };
}

export interface NoteSharedFacts {
  workspace_name: string;
  workspace_slug: string;
  topic_title: string;
  topic_slug: string;
  shared_by: string | null;
  message: string | null;
}

export function noteSharedContent(f: NoteSharedFacts, publicUrl: string): MailContent {
  const by = f.shared_by ?? "Someone";
  return {
    subject: `${by} shared "${f.topic_title}" with you`,
    paragraphs: [
      `${by} shared the note "${f.topic_title}" with you in ${f.workspace_name}.`,
      ...(f.message ? [`Their message: ${f.message}`] : []),
      "It is in your inbox of shared notes.",
    ],
    action: {
      label: "Read the note",
      url: `${publicUrl}/api/v1/workspaces/${encodeURIComponent(f.workspace_slug)}/topics/${encodeURIComponent(f.topic_slug)}`,
    },
  };
}

export interface PaymentFailedFacts {
  workspace_name: string;
  workspace_slug: string;
  /** The plan the failed payment is for. */
  plan: string;
}

export function paymentFailedContent(f: PaymentFailedFacts, publicUrl: string): MailContent {
  return {
    subject: `Payment failed for ${f.workspace_name}`,
    paragraphs: [
      `The latest payment for the ${f.plan} plan of the workspace "${f.workspace_name}" (${f.workspace_slug}) failed.`,
      "The provider will try again. Update the payment method in the billing portal to keep the plan.",
    ],
    action: {
      label: "See the workspace's billing",
      url: `${publicUrl}/api/v1/workspaces/${encodeURIComponent(f.workspace_slug)}/commercial-usage`,
    },
  };
}

export interface OfferIssuedFacts {
  workspace_name: string;
  workspace_slug: string;
  offer_id: string;
  plan: string;
  amount: number;
  currency: string;
  interval: string;
  term_months: number;
  radar_credits: number | null;
  expires_at: string;
  revision: number;
}

const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;

export function offerIssuedContent(f: OfferIssuedFacts, publicUrl: string): MailContent {
  const plan = f.plan.charAt(0).toUpperCase() + f.plan.slice(1);
  return {
    subject: f.revision > 1 ? `A revised offer for ${f.workspace_name}: ${plan} plan` : `An offer for ${f.workspace_name}: ${plan} plan`,
    paragraphs: [
      `${
        f.revision > 1 ? "A revised offer" : "An offer"
      } of the ${plan} plan was made to the workspace "${f.workspace_name}" (${f.workspace_slug}): ${
        money(f.amount, f.currency)
      } per ${f.interval}, for ${f.term_months} month${f.term_months === 1 ? "" : "s"}.`,
      ...(f.radar_credits ? [`It includes ${f.radar_credits} radar credits, granted when it is accepted.`] : []),
      `It is open until ${f.expires_at}. An owner of the workspace accepts it (offer ${f.offer_id}).`,
    ],
    action: {
      label: "Review the offer",
      url: `${publicUrl}/api/v1/workspaces/${encodeURIComponent(f.workspace_slug)}/billing/offers`,
    },
  };
}

const LIST_NAME: Record<MailList, string> = {
  membership: "membership notices",
  shared_notes: "notes shared with you",
  billing: "billing notices",
};

/**
 * The message: text and HTML from the same content, an unsubscribe link in both, and the
 * one-click unsubscribe headers (RFC 2369 `List-Unsubscribe`, RFC 8058 `List-Unsubscribe-Post`).
 */
export function composeMail(to: string, list: MailList, content: MailContent, unsubscribeUrl: string): OutgoingMail {
  const footer = `You receive this because you are a member of a workspace. Stop mail about ${LIST_NAME[list]}: ${unsubscribeUrl}`;
  const text = [
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    "--",
    footer,
  ].join("\n\n") + "\n";
  const p = content.paragraphs.map((x) => `<p>${escapeHtml(x)}</p>`).join("\n");
  const action = content.action ? `\n<p><a href="${escapeHtml(content.action.url)}">${escapeHtml(content.action.label)}</a></p>` : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1d2330">
${p}${action}
<hr>
<p style="color: #5b6478; font-size: 0.85em">You receive this because you are a member of a workspace.
<a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe from ${escapeHtml(LIST_NAME[list])}</a>.</p>
</body></html>
`;
  return {
    to,
    subject: content.subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
