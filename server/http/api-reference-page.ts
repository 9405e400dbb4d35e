/**
 * The page of the interactive API reference (`GET /api/v1/docs`), written here rather than by the
 * OpenAPI plugin: the plugin's page loads Scalar from a CDN and configures it through an inline
 * script element, and this page runs no inline script at all. It loads two scripts of this origin,
 * Scalar's bundle and the small script that mounts it, under a policy that allows nothing else to
 * run ([ADR 013](../../docs/decisions/013-security-headers-and-offline-reference.md)).
 *
 * URLs are relative to the page, as the plugin's were, so the page also works behind a proxy that
 * mounts the API under another path.
 */
import { createHash } from "node:crypto";
import { escapeHtml } from "./html-page.ts";

/**
 * Scripts: this origin's only. Styles: Scalar writes its stylesheet and theme into `<style>`
 * elements at run time, which 'unsafe-inline' allows; CSS cannot run script. Everything the page
 * fetches (the OpenAPI document, requests sent from the "Test request" client) stays on this origin.
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Mounts the reference. Off: Scalar's web fonts (a CDN of its own), its telemetry, its AI agent and
 * MCP generator (services of its own) and its developer tools; the document comes from this server.
 * The element is not `#api-reference`: the bundle would mount an unconfigured copy there by itself.
 */
export const API_REFERENCE_INIT_SCRIPT = `"use strict";
Scalar.createApiReference("#reference", {
  url: "openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
});
`;

/** Named by content, so it can be cached for good and a changed script is a new URL. */
export const API_REFERENCE_INIT_FILE = `init-${createHash("sha256").update(API_REFERENCE_INIT_SCRIPT).digest("hex").slice(0, 16)}.js`;

/** The page; `assets` is the path of the assets relative to the page, e.g. `docs/assets`. */
export function renderApiReferencePage(title: string, bundleFile: string, assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
</head>
<body>
<div id="reference"></div>
<script src="${assets}/${bundleFile}"></script>
<script src="${assets}/${API_REFERENCE_INIT_FILE}"></script>
</body>
</html>
`;
}
