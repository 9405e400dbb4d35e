/**
 * The user's side of the consent page without a browser, as the no-identity-provider fallback
 * has it (docs/decisions/029-oauth-server.md): open the authorization URL, read the page's CSRF
 * cookie and hidden fields, and post the form with one of the user's API keys. Answers where the
 * server sends the browser (the 303's Location): the client's redirect URI with `code` (or
 * `error`), `state` and `iss`.
 */
import { expect } from "bun:test";

const unescapeHtml = (s: string) =>
  s.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

export async function decideConsent(
  authorizationUrl: URL | string,
  apiKey: string,
  decision: "approve" | "deny" = "approve",
): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`The consent page answered ${page.status}: ${html.slice(0, 500)}`);
  expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
  expect(cookie).toStartWith("oauth_csrf=");
  const action = unescapeHtml(/<form method="post" action="([^"]+)"/.exec(html)![1]!);
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(name!, unescapeHtml(value!));
  }
  expect(form.get("csrf_token")).toBe(decodeURIComponent(cookie.slice("oauth_csrf=".length)));
  form.set("api_key", apiKey);
  form.set("decision", decision);
  const decided = await fetch(action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: new URL(action).origin },
    body: form,
  });
  if (decided.status !== 303) throw new Error(`The consent form's post answered ${decided.status}: ${await decided.text()}`);
  return new URL(decided.headers.get("location")!);
}
