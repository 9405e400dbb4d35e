import type { ServerConfig } from "../deps.ts";

/**
 * Operations whose request body is a streamed upload (an archive) rather than JSON: they take
 * up to IMPORT_LIMIT_BYTES instead of BODY_LIMIT_BYTES, their body is handed to the route as a
 * stream (no JSON parsing), and they count it themselves as it arrives.
 * docs/decisions/064-markdown-import.md.
 */
const STREAMED_UPLOADS: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: "POST", path: /^\/api\/v1\/workspaces\/[^/]+\/(?:topics|watchers)\/import$/ },
  { method: "POST", path: /^\/api\/v1\/workspaces\/[^/]+\/collections\/[^/]+\/records\/import$/ },
  { method: "POST", path: /^\/api\/v1\/workspaces\/[^/]+\/import$/ },
];

/** IMPORT_LIMIT_BYTES' default: 1 GiB. */
export const DEFAULT_IMPORT_LIMIT_BYTES = 1024 * 1024 * 1024;

export function importLimitOf(config: Pick<ServerConfig, "importLimitBytes">): number {
  return config.importLimitBytes ?? DEFAULT_IMPORT_LIMIT_BYTES;
}

/** Whether `method url` is a streamed upload (the URL's path only: no query string). */
export function isStreamedUpload(method: string, url: string): boolean {
  const path = new URL(url).pathname;
  return STREAMED_UPLOADS.some((u) => u.method === method && u.path.test(path));
}

/** The most bytes the request's body may hold: its operation's upload limit, else BODY_LIMIT_BYTES. */
export function bodyLimitOf(method: string, url: string, config: Pick<ServerConfig, "bodyLimitBytes" | "importLimitBytes">): number {
  return isStreamedUpload(method, url) ? Math.max(config.bodyLimitBytes, importLimitOf(config)) : config.bodyLimitBytes;
}
