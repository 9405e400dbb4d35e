/**
 * MCP protocol revisions this server speaks (docs/decisions/027-mcp-and-bearer-credentials.md):
 * the latest, 2025-11-25, and the two before it, negotiated in `initialize`. The server is
 * stateless (no `Mcp-Session-Id`, nothing kept between requests, `initialize` not required
 * first), as revision 2026-07-28 makes the protocol.
 */
export const LATEST_REVISION = "2025-11-25";
export const SUPPORTED_REVISIONS: readonly string[] = [LATEST_REVISION, "2025-06-18", "2025-03-26"];

/** The revision answered to `initialize`: the client's when supported, else the latest (the client then decides). */
export function negotiateRevision(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_REVISIONS.includes(requested) ? requested : LATEST_REVISION;
}

/**
 * Whether an `MCP-Protocol-Version` header is acceptable: absent (a 2025-03-26 client sends none,
 * and the transport says to assume that revision) or a supported revision.
 */
export function acceptsRevisionHeader(header: string | null): boolean {
  return header === null || SUPPORTED_REVISIONS.includes(header.trim());
}
