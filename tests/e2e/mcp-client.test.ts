/**
 * The official MCP TypeScript SDK's client against the real server (`bun server/main.ts`, embedded
 * store): Streamable HTTP with the API key as a bearer header, then tools listed and called as a
 * coding agent would. What it proves beyond tests/api/mcp.test.ts: that the SDK accepts this
 * stateless server (initialize, the 202 for its notification, the 405 for its GET stream) and
 * validates each structuredContent against the tool's outputSchema.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type AppServer, bootstrapWorkspace, startAppServer } from "../support/app-server.ts";

describe("MCP SDK client over Streamable HTTP", () => {
  let server: AppServer;
  let apiKey: string;
  let client: Client;

  const connect = async (headers: Record<string, string>, path = "/mcp") => {
    const c = new Client({ name: "e2e-agent", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}${path}`), { requestInit: { headers } }));
    return c;
  };
  const structured = (result: Awaited<ReturnType<Client["callTool"]>>) => result.structuredContent as Record<string, any>;

  beforeAll(async () => {
    server = await startAppServer({ name: "mcp-e2e", env: { LOG_LEVEL: "warn" } });
    ({ apiKey } = await bootstrapWorkspace(server.origin, "mcp-e2e"));
    const res = await fetch(`${server.origin}/api/v1/workspaces/mcp-e2e/topics`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        title: "Deploys run on Fridays",
        body: "Deploys happen on Fridays after the freeze.",
        anchors: ["deploy/**"],
        status: "proposed",
      }),
    });
    expect(res.status).toBe(201);
    client = await connect({ Authorization: `Bearer ${apiKey}` });
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  test("negotiates the latest revision and lists the six tools with input and output schemas", async () => {
    expect(client.getServerVersion()?.name).toBe("workspace-knowledge");
    expect(client.getInstructions()).toContain("retrieve_context");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["get_topic", "match_files", "propose_topic", "retrieve_context", "search_topics", "suggest_edit"],
    );
    for (const t of tools) expect(t.outputSchema?.type).toBe("object");
  });

  test("calls read tools: search, match files, retrieve twice in one session", async () => {
    const found = await client.callTool({ name: "search_topics", arguments: { query: "deploys" } });
    expect(found.isError).toBeFalsy();
    expect(structured(found).topics[0]).toMatchObject({ slug: "deploys-run-on-fridays", trust: "proposed" });
    const matched = await client.callTool({ name: "match_files", arguments: { paths: ["deploy/run.sh"] } });
    expect(structured(matched).files[0].topics[0].slug).toBe("deploys-run-on-fridays");
    const first = await client.callTool({ name: "retrieve_context", arguments: { question: "when do deploys happen" } });
    const session = structured(first).session;
    expect(structured(first).topics.map((t: any) => t.slug)).toEqual(["deploys-run-on-fridays"]);
    const second = await client.callTool({ name: "retrieve_context", arguments: { question: "when do deploys happen", session } });
    expect(structured(second).topics).toEqual([]);
    expect(structured(second).skipped_delivered).toEqual(["deploys-run-on-fridays"]);
  });

  test("calls write tools: a proposed topic and a suggested edit, seen over the REST API", async () => {
    const proposed = await client.callTool({
      name: "propose_topic",
      arguments: { title: "Rollbacks", body: "Roll back with the previous tag." },
    });
    expect(structured(proposed)).toMatchObject({ status: "proposed", slug: "rollbacks" });
    const edit = await client.callTool({
      name: "suggest_edit",
      arguments: { slug: "rollbacks", summary: "Name the command", patch: { body: "Run `deploy --tag previous`." } },
    });
    expect(structured(edit).status).toBe("open");
    const proposals = await fetch(`${server.origin}/api/v1/workspaces/mcp-e2e/topics/rollbacks/proposals`, {
      headers: { "x-api-key": apiKey },
    });
    expect(proposals.status).toBe(200);
    expect((await proposals.json()).proposals.map((p: any) => p.summary)).toEqual(["Name the command"]);
  });

  test("a tool error reaches the agent as a result it can read", async () => {
    const missing = await client.callTool({ name: "get_topic", arguments: { slug: "no-such-topic" } });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("NOT_FOUND");
  });

  test("works at /api/v1/mcp too, with the key in x-api-key", async () => {
    const other = await connect({ "x-api-key": apiKey }, "/api/v1/mcp");
    expect(await other.ping()).toEqual({});
    await other.close();
  });

  test("without a credential the connection is refused with a 401", async () => {
    // The SDK's StreamableHTTPError carries the HTTP status as `code`.
    await expect(connect({})).rejects.toMatchObject({ code: 401, message: expect.stringContaining("UNAUTHENTICATED") });
  });
});
