/**
 * The end of the consent flow in a real browser, as both browser tests take it: click Allow, land
 * on the client's redirect URI with `code`, `state` and `iss` (and nothing else reaching the
 * client, no page error), then redeem the code as the client would. Answers the token response.
 */
import { expect } from "bun:test";
import type { Page } from "playwright-core";

export interface AllowedConsent {
  page: Page;
  origin: string;
  redirectUri: string;
  clientId: string;
  state: string;
  verifier: string;
  /** What reached the client's redirect URI so far. */
  callbacks: URL[];
  /** The page's script errors so far. */
  errors: string[];
}

export async function allowAndRedeem(c: AllowedConsent): Promise<Record<string, string>> {
  await Promise.all([
    c.page.waitForURL((url) => url.href.startsWith(c.redirectUri)),
    c.page.getByRole("button", { name: "Allow" }).click(),
  ]);
  expect(await c.page.locator("#done").textContent()).toBe("Connected");
  const landed = new URL(c.page.url());
  expect(landed.searchParams.get("code")).toStartWith("wkac_");
  expect(landed.searchParams.get("state")).toBe(c.state);
  expect(landed.searchParams.get("iss")).toBe(c.origin);
  expect(c.callbacks.map((u) => u.href)).toEqual([landed.href]);
  expect(c.errors).toEqual([]);

  const token = await fetch(`${c.origin}/api/v1/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: landed.searchParams.get("code")!,
      code_verifier: c.verifier,
      redirect_uri: c.redirectUri,
      client_id: c.clientId,
    }),
  });
  expect(token.status).toBe(200);
  return await token.json();
}
