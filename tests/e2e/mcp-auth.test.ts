/**
 * The official MCP TypeScript SDK's OAuth client against the real server (`bun server/main.ts`,
 * embedded store), as a coding agent connects with no credential configured: the 401 from `/mcp`
 * names the protected-resource metadata; the SDK's `auth()` reads it, discovers the authorization
 * server (RFC 8414), registers itself (RFC 7591) and produces an authorization URL; the user
 * approves on the consent page (here: its form posted with an API key); the agent hands the code
 * to the SDK (`finishAuth`) and then lists and calls tools with the token it got.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auth, type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { type AppServer, bootstrapWorkspace, startAppServer } from "../support/app-server.ts";
import { decideConsent } from "../support/consent-form.ts";

const REDIRECT_URI = "http://127.0.0.1:33418/oauth/callback";

/** An agent's OAuth state, in memory: what a real agent keeps in its config directory. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  /** The authorization URLs the SDK asked the agent to open, in order. */
  readonly opened: URL[] = [];
  readonly states: string[] = [];

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "E2E coding agent",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    const s = crypto.randomUUID();
    this.states.push(s);
    return s;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.opened.push(url);
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "tokens") this.saved = undefined;
  }
}

describe("MCP SDK client: OAuth from a 401 to tools", () => {
  let server: AppServer;
  let apiKey: string;
  let slug: string;
  const provider = new MemoryProvider();
  const mcpUrl = () => new URL(`${server.origin}/mcp`);
  const structured = (result: Awaited<ReturnType<Client["callTool"]>>) => result.structuredContent as Record<string, any>;

  /** The user approves what the SDK opened; answers the code after checking state and iss. */
  const approve = async (url: URL) => {
    const callback = await decideConsent(url, apiKey);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("state")).toBe(provider.states.at(-1)!);
    expect(callback.searchParams.get("iss")).toBe(server.origin);
    return callback.searchParams.get("code")!;
  };

  beforeAll(async () => {
    server = await startAppServer({ name: "mcp-auth-e2e", env: { LOG_LEVEL: "warn" } });
    ({ slug, apiKey } = await bootstrapWorkspace(server.origin, "mcp-auth-e2e"));
    const res = await fetch(`${server.origin}/api/v1/workspaces/${slug}/topics`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({ title: "Releases are tagged", body: "Every release gets a signed tag.", status: "proposed" }),
    });
    expect(res.status).toBe(201);
  });

  afterAll(async () => {
    await server?.stop();
  });

  test("a 401 leads the SDK through discovery and registration to an authorization URL; after consent and finishAuth, tools work", async () => {
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    const first = new Client({ name: "e2e-agent", version: "1.0.0" });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    // The SDK registered a public client and asked the agent to open the consent page.
    expect(provider.client?.client_id).toStartWith("wkc_");
    expect(provider.opened).toHaveLength(1);
    const url = provider.opened[0]!;
    expect(`${url.origin}${url.pathname}`).toBe(`${server.origin}/api/v1/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: provider.client!.client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge_method: "S256",
      // The scope the 401's challenge named, and this service as the RFC 8707 resource.
      scope: "work:read",
      resource: server.origin,
    });

    await transport.finishAuth(await approve(url));
    expect(provider.saved?.access_token).toStartWith("wkat_");
    expect(provider.saved?.refresh_token).toStartWith("wkrt_");
    expect(provider.saved?.scope).toBe("work:read");

    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("search_topics");
    const found = await client.callTool({ name: "search_topics", arguments: { query: "releases" } });
    expect(found.isError).toBeFalsy();
    expect(structured(found).topics.map((t: any) => t.slug)).toEqual(["releases-are-tagged"]);
    await client.close();

    // The token is the person's, over OAuth, for this client, in the key's workspace.
    const me = await fetch(`${server.origin}/api/v1/me`, { headers: { authorization: `Bearer ${provider.saved!.access_token}` } });
    expect((await me.json()).principal).toMatchObject({ via: "oauth", client_id: provider.client!.client_id, scopes: ["work:read"] });
  });

  test("a write tool with a read-only token is a 403 step-up; authorized again with work:write, it runs", async () => {
    const readOnly = new Client({ name: "e2e-agent", version: "1.0.0" });
    await readOnly.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    // The SDK reads the insufficient_scope challenge and tries auth() with its scope; holding a
    // refresh token, it refreshes first, which keeps the grant's scopes (a refresh never widens a
    // grant), so the retry is refused again and the SDK gives up with the 403.
    await expect(readOnly.callTool({ name: "propose_topic", arguments: { title: "Nope", body: "x" } })).rejects.toMatchObject({
      code: 403,
    });
    await readOnly.close();

    // The agent then asks the user again, for the scope the challenge named.
    provider.invalidateCredentials("tokens");
    expect(await auth(provider, { serverUrl: mcpUrl(), scope: "work:read work:write" })).toBe("REDIRECT");
    const url = provider.opened.at(-1)!;
    expect(url.searchParams.get("scope")).toBe("work:read work:write");
    expect(await auth(provider, { serverUrl: mcpUrl(), authorizationCode: await approve(url) })).toBe("AUTHORIZED");
    expect(provider.saved?.scope).toBe("work:read work:write");

    const writer = new Client({ name: "e2e-agent", version: "1.0.0" });
    await writer.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const proposed = await writer.callTool({ name: "propose_topic", arguments: { title: "Hotfixes", body: "Branch from the tag." } });
    expect(structured(proposed)).toMatchObject({ status: "proposed", slug: "hotfixes" });
    await writer.close();
  });

  test("an expired or revoked token: the SDK refreshes with its refresh token on the 401 and carries on", async () => {
    const revoked = provider.saved!;
    const revoke = await fetch(`${server.origin}/api/v1/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: revoked.access_token, client_id: provider.client!.client_id }),
    });
    expect(revoke.status).toBe(200);
    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    expect(provider.saved!.access_token).not.toBe(revoked.access_token);
    expect(provider.saved!.refresh_token).not.toBe(revoked.refresh_token);
    const got = await client.callTool({ name: "get_topic", arguments: { slug: "hotfixes" } });
    expect(structured(got).title).toBe("Hotfixes");
    await client.close();
  });
});
