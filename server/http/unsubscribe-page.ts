/**
 * The pages of an unsubscribe link: script-free HTML, every value escaped. The page's own form
 * posts back to this origin (`form-action 'self'`); nothing else may load or run.
 */
import type { MailList } from "../../core/mail/mod.ts";
import { escapeHtml, htmlPage } from "./html-page.ts";

export const UNSUBSCRIBE_SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  // The token is in the URL: no referrer may carry it anywhere.
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-robots-tag": "noindex",
  "content-type": "text/html; charset=utf-8",
};

const LIST_LABEL: Record<MailList, string> = {
  membership: "membership notices (you were added to a workspace)",
  shared_notes: "notes shared with you",
  billing: "billing notices",
};

const STYLE = `body { margin: 0; font: 16px/1.6 system-ui, sans-serif; color: #1d2330; background: #f6f7fb; }
main { max-width: 32rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid #e3e6ee; border-radius: 10px; }
h1 { font-size: 1.4rem; margin-top: 0; } button { font: inherit; padding: .5rem 1.1rem; border-radius: 6px; border: 0; background: #2747c7; color: #fff; cursor: pointer; }
.muted { color: #5b6478; font-size: .9rem; }`;

const page = (title: string, content: string) => htmlPage(title, STYLE, content);

/** GET: what the link would do, and the button that does it (a POST: mail scanners only GET). */
export function renderUnsubscribeConfirm(list: MailList, token: string): string {
  return page(
    "Unsubscribe",
    `<h1>Unsubscribe?</h1>
<p>You will no longer receive mail about <strong id="list" data-list="${list}">${
      escapeHtml(LIST_LABEL[list])
    }</strong>, from any workspace.</p>
<form method="post" action="?token=${escapeHtml(encodeURIComponent(token))}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" id="unsubscribe">Unsubscribe</button>
</form>
<p class="muted">Other mail (of other lists) is not affected.</p>`,
  );
}

/** POST: done (also when it was done before). */
export function renderUnsubscribed(list: MailList): string {
  return page(
    "Unsubscribed",
    `<h1 id="done">You are unsubscribed</h1>
<p>No more mail about <strong data-list="${list}">${escapeHtml(LIST_LABEL[list])}</strong> will be sent to you.</p>`,
  );
}

/** A missing, malformed or forged token. */
export function renderBadUnsubscribeLink(requestId: string): string {
  return page(
    "Invalid link",
    `<h1>This unsubscribe link is not valid</h1>
<p>It may have been cut short when it was copied. Open the link from the message again.</p>
<p class="muted">Request id: <code>${escapeHtml(requestId)}</code></p>`,
  );
}
