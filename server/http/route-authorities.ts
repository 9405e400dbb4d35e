import type { Authority } from "../../core/access/mod.ts";

/**
 * The authority each operation of the service needs, declared once (docs/decisions/051-authority-table.md):
 * `METHOD /path` as the route is registered (full path, `{param}`), to an authority of
 * core/access/authority.ts. The authorization matrix test walks the app's own route table, so a
 * route added without a line here fails it; the OpenAPI document's `oauth2` scopes and
 * `x-authority` are read from here too. The deprecated `/watchers` paths are the `/topics` ones
 * (`authorityOf`); a path ending in `/*` covers what is below it (the reference's hashed assets).
 */
export const ROUTE_AUTHORITIES: Readonly<Record<string, Authority>> = {
  // ---- public: pages, documents, metadata, preflight ----
  "GET /s/{token}": "public",
  "GET /s/{token}/raw": "public",
  "GET /api/v1/s/{token}": "public",
  "GET /api/v1/s/{token}/raw": "public",
  "GET /.well-known/oauth-protected-resource": "public",
  "GET /.well-known/oauth-authorization-server": "public",
  "GET /.well-known/oauth-authorization-server/api/v1/workspaces/{slug}": "public",
  "OPTIONS /": "public",
  "OPTIONS /*": "public",
  "GET /api/v1/health": "public",
  "GET /api/v1/health/ready": "public",
  "GET /api/v1/version": "public",
  "GET /api/v1/openapi.json": "public",
  "GET /api/v1/docs": "public",
  "GET /api/v1/docs/assets/*": "public",
  "GET /api/v1/blog/posts": "public",
  "GET /api/v1/blog/posts/{slug}": "public",
  "GET /api/v1/auth/login": "public",
  "GET /api/v1/auth/callback": "public",
  "POST /api/v1/auth/logout": "own_origin",
  "HEAD /api/v1/webhooks/support": "public",

  // ---- signed: the signature (or the signed link) is the credential ----
  "GET /api/v1/email/unsubscribe": "signature",
  "POST /api/v1/email/unsubscribe": "signature",
  "POST /api/v1/webhooks/code-host": "signature",
  "POST /api/v1/webhooks/radar/monitor": "signature",
  "POST /api/v1/webhooks/identity": "signature",
  "POST /api/v1/webhooks/support": "signature",
  "POST /api/v1/webhooks/billing": "signature",

  // ---- OAuth: the protocol's endpoints, the consent decision, a workspace's grants ----
  "POST /api/v1/oauth/register": "oauth_protocol",
  "GET /api/v1/oauth/clients/{clientId}": "oauth_protocol",
  "POST /api/v1/oauth/token": "oauth_protocol",
  "POST /api/v1/oauth/revoke": "oauth_protocol",
  "GET /api/v1/oauth/authorize": "oauth_protocol",
  "POST /api/v1/oauth/authorize": "consent",
  "POST /api/v1/workspaces/{slug}/oauth/register": "oauth_protocol",
  "GET /api/v1/workspaces/{slug}/oauth/clients/{clientId}": "oauth_protocol",
  "POST /api/v1/workspaces/{slug}/oauth/token": "oauth_protocol",
  "POST /api/v1/workspaces/{slug}/oauth/revoke": "oauth_protocol",
  "GET /api/v1/workspaces/{slug}/oauth/authorize": "oauth_protocol",
  "POST /api/v1/workspaces/{slug}/oauth/authorize": "consent",
  "GET /api/v1/workspaces/{slug}/oauth/grants": "person_read",
  "DELETE /api/v1/workspaces/{slug}/oauth/grants/{id}": "own_or_owner_admin",

  // ---- MCP (JSON-RPC; each tool's scope is checked within: tests/api/mcp-authorization.test.ts) ----
  "POST /mcp": "agent",
  "POST /api/v1/mcp": "agent",

  // ---- workspaces, keys, members ----
  "POST /api/v1/workspaces": "bootstrap",
  "GET /api/v1/me": "any_credential",
  "GET /api/v1/workspaces/{slug}": "member_read",
  "PATCH /api/v1/workspaces/{slug}": "owner_admin",
  "DELETE /api/v1/workspaces/{slug}": "owner",
  "PATCH /api/v1/workspaces/{slug}/plan": "owner_admin",
  "GET /api/v1/workspaces/{slug}/commercial-usage": "member_read",
  "GET /api/v1/workspaces/{slug}/health": "member_read",
  "POST /api/v1/workspaces/{slug}/api-keys": "human_write",
  "GET /api/v1/workspaces/{slug}/api-keys": "person_read",
  "DELETE /api/v1/workspaces/{slug}/api-keys/{id}": "own_or_owner_admin",
  "GET /api/v1/workspaces/{slug}/members": "member_read",
  "POST /api/v1/workspaces/{slug}/members": "owner_admin",
  "PATCH /api/v1/workspaces/{slug}/members/{memberId}": "owner_admin",
  "DELETE /api/v1/workspaces/{slug}/members/{memberId}": "owner_admin",
  "GET /api/v1/workspaces/{slug}/export": "owner_admin_read",
  "POST /api/v1/workspaces/{slug}/import": "owner",
  "GET /api/v1/workspaces/{slug}/areas": "member_read",
  "POST /api/v1/workspaces/{slug}/areas": "owner_admin",
  "PATCH /api/v1/workspaces/{slug}/areas/{id}": "owner_admin",
  "DELETE /api/v1/workspaces/{slug}/areas/{id}": "owner_admin",
  "POST /api/v1/workspaces/{slug}/repos": "owner_admin",
  "GET /api/v1/workspaces/{slug}/repos": "member_read",
  "GET /api/v1/workspaces/{slug}/repos/{id}": "member_read",
  "DELETE /api/v1/workspaces/{slug}/repos/{id}": "owner_admin",
  "GET /api/v1/workspaces/{slug}/repos/{id}/index": "member_read",
  "POST /api/v1/workspaces/{slug}/repos/{id}/refresh": "owner_admin",
  "GET /api/v1/workspaces/{slug}/events/stream": "member_read",
  "GET /api/v1/workspaces/{slug}/support/conversations": "owner_admin_read",

  // ---- topics (the /watchers alias answers the same) ----
  "GET /api/v1/workspaces/{slug}/topics": "member_read",
  "POST /api/v1/workspaces/{slug}/topics": "write",
  "POST /api/v1/workspaces/{slug}/topics/import": "write",
  "GET /api/v1/workspaces/{slug}/topics/search": "member_read",
  "GET /api/v1/workspaces/{slug}/topics/events": "member_read",
  "GET /api/v1/workspaces/{slug}/topics/{topic}": "member_read",
  "PATCH /api/v1/workspaces/{slug}/topics/{topic}": "write",
  "DELETE /api/v1/workspaces/{slug}/topics/{topic}": "owner_admin_or_author",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/merge": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/move": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/propose": "write",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/reject": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/approve": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/archive": "write",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/unvouch": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/vouch-ack": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/restore": "owner_admin",
  "GET /api/v1/workspaces/{slug}/topics/proposals": "member_read",
  "GET /api/v1/workspaces/{slug}/topics/{topic}/proposals": "member_read",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/proposals": "write",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/proposals/{proposalId}/merge": "owner_admin",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/proposals/{proposalId}/reject": "owner_admin",
  "GET /api/v1/workspaces/{slug}/topics/{topic}/relations": "member_read",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/relations": "relate",
  "DELETE /api/v1/workspaces/{slug}/topics/{topic}/relations/{relationId}": "human_write",
  "GET /api/v1/workspaces/{slug}/topics/graph": "member_read",
  "GET /api/v1/workspaces/{slug}/topics/graph-full": "member_read",
  "POST /api/v1/workspaces/{slug}/topics/match-files": "member_read",
  "POST /api/v1/workspaces/{slug}/topics/mark-drift": "write",
  "POST /api/v1/workspaces/{slug}/topics/retrieve": "member_read",
  "GET /api/v1/workspaces/{slug}/topics/audit": "member_read",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/share": "write",
  "GET /api/v1/workspaces/{slug}/topics/{topic}/share": "member_read",
  "DELETE /api/v1/workspaces/{slug}/topics/{topic}/share": "write",
  "POST /api/v1/workspaces/{slug}/topics/{topic}/share-with": "write",
  "GET /api/v1/workspaces/{slug}/shared": "person_read",
  "POST /api/v1/workspaces/{slug}/shared/read-all": "person_write",
  "POST /api/v1/workspaces/{slug}/shared/{id}/read": "person_write",
  "GET /api/v1/workspaces/{slug}/tags": "member_read",
  "POST /api/v1/workspaces/{slug}/tags": "write",
  "PATCH /api/v1/workspaces/{slug}/tags/{name}": "write",
  "DELETE /api/v1/workspaces/{slug}/tags/{name}": "owner_admin",

  // ---- collections, records, entities ----
  "POST /api/v1/workspaces/{slug}/collections": "write",
  "GET /api/v1/workspaces/{slug}/collections": "member_read",
  "GET /api/v1/workspaces/{slug}/collections/search": "member_read",
  "GET /api/v1/workspaces/{slug}/collections/doctor": "member_read",
  "GET /api/v1/workspaces/{slug}/collections/{id}": "member_read",
  "PATCH /api/v1/workspaces/{slug}/collections/{id}": "write",
  "DELETE /api/v1/workspaces/{slug}/collections/{id}": "owner_admin_or_author",
  "GET /api/v1/workspaces/{slug}/collections/{id}/context": "member_read",
  "POST /api/v1/workspaces/{slug}/collections/{id}/archive": "write",
  "POST /api/v1/workspaces/{slug}/collections/{id}/restore": "write",
  "GET /api/v1/workspaces/{slug}/collections/{id}/connector-mapping": "member_read",
  "PUT /api/v1/workspaces/{slug}/collections/{id}/connector-mapping": "write",
  "GET /api/v1/workspaces/{slug}/collections/{id}/presentation": "member_read",
  "PUT /api/v1/workspaces/{slug}/collections/{id}/presentation": "write",
  "POST /api/v1/workspaces/{slug}/collections/{id}/records": "write",
  "GET /api/v1/workspaces/{slug}/collections/{id}/records": "member_read",
  "POST /api/v1/workspaces/{slug}/collections/{id}/records/query": "member_read",
  "POST /api/v1/workspaces/{slug}/collections/{id}/records/aggregate": "member_read",
  "GET /api/v1/workspaces/{slug}/collections/{id}/records/export": "member_read",
  "POST /api/v1/workspaces/{slug}/collections/{id}/records/import": "write",
  "GET /api/v1/workspaces/{slug}/collections/{id}/retrieve": "member_read",
  "GET /api/v1/workspaces/{slug}/collections/{id}/records/{recordId}": "member_read",
  "PATCH /api/v1/workspaces/{slug}/collections/{id}/records/{recordId}": "write",
  "DELETE /api/v1/workspaces/{slug}/collections/{id}/records/{recordId}": "write",
  "GET /api/v1/workspaces/{slug}/collections/{id}/records/{recordId}/history": "member_read",
  "POST /api/v1/workspaces/{slug}/collections/{id}/records/{recordId}/outcomes": "write",
  "POST /api/v1/workspaces/{slug}/entities": "write",
  "GET /api/v1/workspaces/{slug}/entities": "member_read",
  "GET /api/v1/workspaces/{slug}/entities/{id}": "member_read",

  // ---- radar and credits ----
  "GET /api/v1/workspaces/{slug}/radar/credits": "member_read",
  "GET /api/v1/workspaces/{slug}/radar/credits/history": "member_read",
  "POST /api/v1/workspaces/{slug}/radar/credits/grant": "platform_operator",
  "GET /api/v1/workspaces/{slug}/radar/criteria/{criterionSlug}": "member_read",
  "PATCH /api/v1/workspaces/{slug}/radar/criteria/{criterionSlug}": "write",
  "POST /api/v1/workspaces/{slug}/radar/searches": "write",
  "GET /api/v1/workspaces/{slug}/radar/runs/{runId}": "member_read",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/price": "write",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/start": "write",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/reconcile": "write",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/enrich": "write",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/enrich/companies": "write",
  "GET /api/v1/workspaces/{slug}/radar/runs/{runId}/trace": "member_read",
  "GET /api/v1/workspaces/{slug}/radar/runs/{runId}/stream": "member_read",
  "GET /api/v1/workspaces/{slug}/radar/runs/{runId}/monitor": "member_read",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/monitor/pause": "write",
  "POST /api/v1/workspaces/{slug}/radar/runs/{runId}/monitor/resume": "write",
  "POST /api/v1/workspaces/{slug}/radar/collections/{collectionId}/contact-paths/quote": "member_read",
  "POST /api/v1/workspaces/{slug}/radar/collections/{collectionId}/contact-paths/unlock": "write",

  // ---- billing ----
  "POST /api/v1/workspaces/{slug}/billing/checkout-session": "owner_admin",
  "POST /api/v1/workspaces/{slug}/billing/portal-session": "owner_admin",
  "GET /api/v1/workspaces/{slug}/billing/offers": "owner_admin_read",
  "POST /api/v1/workspaces/{slug}/billing/offers/{id}/accept": "owner",
  "GET /api/v1/platform/billing/workspaces": "platform_operator",
  "GET /api/v1/platform/billing/plans": "platform_operator",
  "POST /api/v1/platform/billing/offers": "platform_operator",
  "GET /api/v1/platform/billing/offers": "platform_operator",
  "GET /api/v1/platform/billing/offers/{id}": "platform_operator",
  "POST /api/v1/platform/billing/offers/{id}/cancel": "platform_operator",
  "POST /api/v1/platform/billing/offers/{id}/reissue": "platform_operator",
  "POST /api/v1/platform/billing/workspaces/{workspaceId}/enterprise": "platform_operator",
  "DELETE /api/v1/platform/billing/workspaces/{workspaceId}/enterprise": "platform_operator",
};

const WATCHERS = "/api/v1/workspaces/{slug}/watchers";
const TOPICS = "/api/v1/workspaces/{slug}/topics";

/** The operation a `/watchers` path is the deprecated alias of, else the path itself. */
export function canonicalPath(path: string): string {
  return path === WATCHERS || path.startsWith(`${WATCHERS}/`) ? TOPICS + path.slice(WATCHERS.length) : path;
}

/** The declared authority of `METHOD path` (a registered path, `{param}` form), or undefined when none is declared. */
export function authorityOf(method: string, path: string): Authority | undefined {
  const key = `${method.toUpperCase()} ${canonicalPath(path)}`;
  const exact = ROUTE_AUTHORITIES[key];
  if (exact) return exact;
  for (const [declared, authority] of Object.entries(ROUTE_AUTHORITIES)) {
    if (declared.endsWith("/*") && key.startsWith(declared.slice(0, -1)) && declared !== "OPTIONS /*") return authority;
  }
  return undefined;
}
