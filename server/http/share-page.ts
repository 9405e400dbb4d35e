/**
 * The public page of a shared topic: Markdown rendered to HTML that no content can script.
 *
 * Two layers keep a hostile body inert. markdown-it runs with `html: false`, so raw HTML in the
 * content is escaped as text, never passed through, and with its default link validation, so
 * `javascript:`, `vbscript:`, `file:` and `data:` links (except `data:image/gif|png|jpeg|webp`)
 * are not rendered as links. Then the response's Content-Security-Policy allows no script at all
 * (`default-src 'none'`), so even a mistake in the first layer could not run one.
 */
import MarkdownIt from "markdown-it";
import type { SharedTopic } from "../../core/sharing/mod.ts";
import { escapeHtml, htmlPage } from "./html-page.ts";

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
// Links lead away from a page nobody vouched for the content of: no referrer, no opener, no SEO credit.
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i]!.attrSet("rel", "nofollow ugc noopener noreferrer");
  return defaultLinkOpen(tokens, i, options, env, self);
};

/** Headers of every answer of the public routes (pages, Markdown and their 404s). */
export const SHARE_SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-robots-tag": "noindex",
};

export function renderMarkdown(body: string): string {
  return md.render(body);
}

const TRUST_LABEL: Record<SharedTopic["trust"], { badge: string; note: string }> = {
  reviewed: { badge: "Reviewed", note: "Reviewed knowledge: an owner or admin of the workspace vouched for it." },
  proposed: { badge: "Proposed", note: "Proposed: up for review, not vouched for yet." },
  draft: { badge: "Draft", note: "Draft: a working note, not reviewed." },
};

const STYLE = `
  :root { color-scheme: light; --ink: #1d2330; --muted: #5b6478; --line: #e3e6ee; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f7fb; }
  main { max-width: 46rem; margin: 2rem auto; padding: 2rem 2.25rem; background: #fff; border: 1px solid var(--line); border-radius: 10px; }
  header h1 { margin: 0 0 .5rem; font-size: 1.9rem; line-height: 1.25; }
  .meta { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; color: var(--muted); font-size: .9rem; margin: 0 0 .5rem; }
  .badge { display: inline-block; padding: .1rem .6rem; border-radius: 999px; font-weight: 600; font-size: .8rem; letter-spacing: .02em; }
  .trust-reviewed { background: #dff5e6; color: #11602d; }
  .trust-proposed { background: #fff1cc; color: #7a5300; }
  .trust-draft { background: #eceef3; color: #3f4658; }
  .flag { background: #fde2e1; color: #8c1d18; }
  .trust-note { color: var(--muted); font-size: .9rem; margin: 0 0 1rem; }
  .tags { list-style: none; display: flex; flex-wrap: wrap; gap: .4rem; padding: 0; margin: 0 0 1rem; }
  .tags li { background: #eef2ff; color: #33408f; border-radius: 4px; padding: 0 .45rem; font-size: .85rem; }
  article { border-top: 1px solid var(--line); padding-top: 1rem; overflow-wrap: anywhere; }
  article img { max-width: 100%; }
  article pre { background: #f3f4f8; padding: .75rem 1rem; border-radius: 6px; overflow-x: auto; }
  article code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
  article blockquote { margin: 0; padding-left: 1rem; border-left: 3px solid var(--line); color: var(--muted); }
  article table { border-collapse: collapse; } article th, article td { border: 1px solid var(--line); padding: .3rem .6rem; }
  footer { margin-top: 2rem; color: var(--muted); font-size: .85rem; border-top: 1px solid var(--line); padding-top: .75rem; }
  a { color: #2747c7; }
`;

const page = (title: string, content: string) => htmlPage(title, STYLE, content);

/** The reader's page: title, trust verdict and flags, tags, the rendered body, when it was updated. */
export function renderSharePage(t: SharedTopic, token: string): string {
  const trust = TRUST_LABEL[t.trust];
  const flags = [
    t.stale ? `<span class="badge flag" data-flag="stale" title="Not re-vouched within the workspace's review interval">Stale</span>` : "",
    t.drifted
      ? `<span class="badge flag" data-flag="drifted" title="The code it documents changed since it was last vouched for">Drifted</span>`
      : "",
  ].join("");
  const tags = t.tags.length === 0
    ? ""
    : `<ul class="tags" aria-label="Tags">${t.tags.map((x) => `<li>${escapeHtml(x)}</li>`).join("")}</ul>`;
  const updated = escapeHtml(t.updated_at);
  return page(
    t.title,
    `<header>
<h1 id="topic-title">${escapeHtml(t.title)}</h1>
<p class="meta"><span class="badge trust-${t.trust}" id="trust" data-trust="${t.trust}">${trust.badge}</span>${flags}<span>Updated <time datetime="${updated}">${
      updated.slice(0, 10)
    }</time></span></p>
<p class="trust-note">${escapeHtml(trust.note)}</p>
${tags}
</header>
<article id="topic-body">
${renderMarkdown(t.body)}</article>
<footer>A read-only shared page. <a href="${escapeHtml(token)}/raw" rel="nofollow noopener noreferrer">Markdown source</a></footer>`,
  );
}

/** The page of a token that opens nothing (unknown, revoked, malformed, archived topic). */
export function renderShareNotFound(requestId: string): string {
  return page(
    "Link not found",
    `<h1>Link not found</h1>
<p>This shared link does not exist or was revoked.</p>
<footer>Request id: <code>${escapeHtml(requestId)}</code></footer>`,
  );
}
