/**
 * The OAuth consent page (`GET /oauth/authorize`): script-free HTML, every value escaped. Its
 * headers forbid scripts and framing, allow the form to post here and the decision's redirect to
 * reach the client (`form-action`), keep no copy (`no-store`) and send no referrer.
 */
import type { AuthorizationRequest } from "../../core/identity/mod.ts";
import { escapeHtml, htmlPage } from "./html-page.ts";

const SCOPE_WORDS: Record<string, string> = {
  "work:read": "Read the workspace: topics, collections, radar runs and their records",
  "work:write": "Change the workspace: create, edit, review and delete what you may (and, if you are an owner or admin, manage it)",
  "topics:write": "Link topics to each other (add relations), and nothing else",
};

export function consentHeaders(redirectUri: string | null): Record<string, string> {
  let origin = "";
  try {
    if (redirectUri) origin = new URL(redirectUri).origin + " ";
  } catch {
    origin = "";
  }
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy":
      `default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action ${origin}'self'; frame-ancestors 'none'`,
    "x-frame-options": "DENY",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-robots-tag": "noindex",
  };
}

const STYLE = `
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2330; background: #f6f7fb; }
  main { max-width: 34rem; margin: 2rem auto; padding: 1.75rem 2rem; background: #fff; border: 1px solid #e3e6ee; border-radius: 10px; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  .muted { color: #5b6478; font-size: .9rem; }
  ul.scopes { padding-left: 1.2rem; }
  ul.scopes code { background: #eef2ff; padding: 0 .3rem; border-radius: 4px; }
  label { display: block; font-weight: 600; margin: 1rem 0 .3rem; }
  select, input[type=password] { width: 100%; padding: .5rem; font: inherit; border: 1px solid #c9cedb; border-radius: 6px; box-sizing: border-box; }
  .buttons { display: flex; gap: .75rem; margin-top: 1.25rem; }
  button { font: inherit; padding: .5rem 1.2rem; border-radius: 6px; border: 1px solid #c9cedb; background: #fff; cursor: pointer; }
  button.approve { background: #1f4fd1; border-color: #1f4fd1; color: #fff; font-weight: 600; }
  .error { background: #fde2e1; color: #8c1d18; padding: .6rem .8rem; border-radius: 6px; }
`;

const page = (title: string, body: string) => htmlPage(title, STYLE, body);

/** A request that cannot go back to its client (unknown client, unregistered redirect URI): shown here, never redirected. */
export function renderAuthorizationError(description: string): string {
  return page(
    "Authorization request refused",
    `<h1>This authorization request cannot be completed</h1><p class="error">${
      escapeHtml(description)
    }</p><p class="muted">The application that sent you here is misconfigured. You can close this page.</p>`,
  );
}

export interface ConsentView {
  request: AuthorizationRequest;
  /** The fixed workspace's slug at a workspace mount; null at the root (the key's workspace). */
  workspace: string | null;
  /** Where the form posts. */
  action: string;
  csrf: string;
  error?: string | null;
  /** Signed in (an identity provider is configured): who decides, and the workspaces to choose from at the root mount. */
  signedIn?: SignedIn;
}

export interface SignedIn {
  email: string;
  workspaces: Array<{ slug: string; name: string }>;
}

export function renderConsentPage(v: ConsentView): string {
  const r = v.request;
  const name = r.client.client_name ?? r.client.client_id;
  const dest = new URL(r.redirect_uri);
  const hidden: Record<string, string | null> = {
    client_id: r.client.client_id,
    redirect_uri: r.redirect_uri,
    response_type: "code",
    scope: r.scopes.join(" "),
    state: r.state,
    code_challenge: r.code_challenge,
    code_challenge_method: r.code_challenge_method,
    resource: r.resource,
    csrf_token: v.csrf,
  };
  const fields = Object.entries(hidden)
    .filter(([, value]) => value !== null)
    .map(([k, value]) => `<input type="hidden" name="${k}" value="${escapeHtml(value!)}">`)
    .join("\n");
  const scopes = r.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_WORDS[s] ?? s)}</li>`).join("");
  const where = v.workspace
    ? `in the workspace <strong>${escapeHtml(v.workspace)}</strong>`
    : v.signedIn
    ? "in the workspace you choose below"
    : "in the workspace of the API key you enter below";
  const who = v.signedIn
    ? `<p class="muted">Signed in as <strong>${escapeHtml(v.signedIn.email)}</strong>.</p>${
      v.workspace ? "" : `<label for="workspace">Workspace</label>
<select id="workspace" name="workspace">${
        v.signedIn.workspaces.map((w) => `<option value="${escapeHtml(w.slug)}">${escapeHtml(w.name)} (${escapeHtml(w.slug)})</option>`)
          .join("")
      }</select>`
    }`
    : `<label for="api_key">Your API key</label>
<input type="password" id="api_key" name="api_key" autocomplete="off" spellcheck="false">
<p class="muted">This server has no sign-in: one of your personal API keys says who you are. It is used for this decision only and is not given to the application.</p>`;
  const site = r.client.client_uri ? `<p class="muted">Its site: ${escapeHtml(r.client.client_uri)}</p>` : "";
  return page(
    `Authorize ${name}`,
    `<h1>Authorize <span>${escapeHtml(name)}</span>?</h1>
${v.error ? `<p class="error">${escapeHtml(v.error)}</p>` : ""}
<p><strong>${escapeHtml(name)}</strong> asks to act for you ${where}. It may:</p>
<ul class="scopes">${scopes}</ul>
${site}
<p class="muted">After your decision you will be sent to <strong>${escapeHtml(dest.origin)}</strong>.</p>
<form method="post" action="${escapeHtml(v.action)}">
${fields}
${who}
<div class="buttons"><button class="approve" type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
  );
}
