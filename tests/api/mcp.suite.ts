import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import type { Stores } from "../../core/stores.ts";
import { issueTokensFor } from "../support/oauth-tokens.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const METADATA = 'resource_metadata="http://localhost/.well-known/oauth-protected-resource"';

/** The MCP endpoint over HTTP, message by message (tests/api/mcp.test.ts runs it on each store). */
export function runMcpSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    let nextId = 1;
    /** A member's OAuth access token with work:read only. */
    let readToken = "";
    const ws = "/workspaces/agents";

    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), {
        core: { paths: picomatchMatcher },
      });
      p = await personas(t, "agents");
      readToken = (await issueTokensFor(t, p.member, ["work:read"])).access_token;
      const mk = async (body: Record<string, unknown>, approve = false) => {
        const res = await t.call("POST", `${ws}/topics`, { key: p.owner, body: { status: "proposed", ...body } });
        if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
        if (approve) await t.call("POST", `${ws}/topics/${res.body.slug}/approve`, { key: p.owner });
      };
      await mk({
        title: "How invoices are numbered",
        body: "Invoices take the next number in the ledger.",
        anchors: ["src/billing/**"],
        tags: ["billing"],
      }, true);
      await mk({ title: "Tax rules", body: "Tax is computed per invoice line.", anchors: ["src/billing/tax.ts"] });
      await mk({ title: "Login flow", body: "Sessions last a day.", anchors: ["src/auth/**"] });
    });

    /** POSTs one message (or raw text) to an MCP mount and reads the answer. */
    async function post(
      message: unknown,
      opts: { key?: string | null; headers?: Record<string, string>; path?: "/mcp" | "/api/v1/mcp"; raw?: string } = {},
    ) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...opts.headers,
      };
      const key = opts.key === undefined ? p.member : opts.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      const res = await t.app.handle(
        new Request(`http://localhost${opts.path ?? "/mcp"}`, { method: "POST", headers, body: opts.raw ?? JSON.stringify(message) }),
      );
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
    }
    const request = (method: string, params?: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id: nextId++,
      method,
      ...(params ? { params } : {}),
    });
    const call = async (tool: string, args: Record<string, unknown>, key?: string) => {
      const res = await post(request("tools/call", { name: tool, arguments: args }), { key });
      expect(res.status).toBe(200);
      return res.body.result;
    };

    describe("transport", () => {
      test("initialize answers the latest revision, or an older one the client asks for, at both mounts", async () => {
        const latest = await post(
          request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }),
        );
        expect(latest.status).toBe(200);
        expect(latest.headers.get("content-type")).toBe("application/json");
        expect(latest.headers.get("mcp-session-id")).toBeNull();
        expect(latest.body.result).toMatchObject({
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "workspace-knowledge" },
        });
        for (const revision of ["2025-06-18", "2025-03-26"]) {
          const older = await post(request("initialize", { protocolVersion: revision }), { path: "/api/v1/mcp" });
          expect(older.body.result.protocolVersion).toBe(revision);
        }
        const unknown = await post(request("initialize", { protocolVersion: "2024-01-01" }));
        expect(unknown.body.result.protocolVersion).toBe("2025-11-25");
      });

      test("is stateless: tools/list and ping work without initialize", async () => {
        const list = await post(request("tools/list"), { headers: { "mcp-protocol-version": "2025-06-18" } });
        expect(list.body.result.tools.map((x: any) => x.name)).toEqual([
          "search_topics",
          "get_topic",
          "retrieve_context",
          "match_files",
          "propose_topic",
          "suggest_edit",
        ]);
        for (const tool of list.body.result.tools) {
          expect(tool.inputSchema.type).toBe("object");
          expect(tool.inputSchema.additionalProperties).toBe(false);
          expect(tool.outputSchema.type).toBe("object");
        }
        expect((await post(request("ping"))).body).toEqual({ jsonrpc: "2.0", id: nextId - 1, result: {} });
      });

      test("a notification or a response is 202 with no body", async () => {
        const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
        expect(note.status).toBe(202);
        expect(note.text).toBe("");
        const response = await post({ jsonrpc: "2.0", id: 9, result: {} });
        expect(response.status).toBe(202);
        expect(response.text).toBe("");
      });

      test("bad JSON is -32700, an invalid message or a batch -32600, an unknown method -32601", async () => {
        const bad = await post(null, { raw: "{not json" });
        expect(bad.status).toBe(400);
        expect(bad.body.error.code).toBe(-32700);
        for (
          const invalid of [{ jsonrpc: "1.0", id: 1, method: "ping" }, [request("ping")], { jsonrpc: "2.0", id: null, method: "ping" }, 42]
        ) {
          const res = await post(invalid);
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe(-32600);
        }
        const unknown = await post(request("resources/list"));
        expect(unknown.status).toBe(200);
        expect(unknown.body.error.code).toBe(-32601);
      });

      test("an unsupported MCP-Protocol-Version is a 400; supported ones pass", async () => {
        const res = await post(request("ping"), { headers: { "mcp-protocol-version": "2024-11-05" } });
        expect(res.status).toBe(400);
        for (const v of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
          expect((await post(request("ping"), { headers: { "mcp-protocol-version": v } })).status).toBe(200);
        }
      });

      test("an Origin that is neither ours nor in CORS_ORIGINS is a 403; ours and a configured one pass", async () => {
        expect((await post(request("ping"), { headers: { origin: "https://evil.example" } })).status).toBe(403);
        expect((await post(request("ping"), { headers: { origin: "http://localhost" } })).status).toBe(200);
        expect((await post(request("ping"), { headers: { origin: "https://app.example.com" } })).status).toBe(200);
      });

      test("GET and DELETE are 405 with Allow: POST", async () => {
        for (const method of ["GET", "DELETE"]) {
          for (const path of ["/mcp", "/api/v1/mcp"]) {
            const res = await t.app.handle(
              new Request(`http://localhost${path}`, { method, headers: { authorization: `Bearer ${p.member}` } }),
            );
            expect(res.status).toBe(405);
            expect(res.headers.get("allow")).toBe("POST");
          }
        }
      });

      test("is not in the OpenAPI document", async () => {
        const doc = (await t.call("GET", "/openapi.json")).body;
        expect(Object.keys(doc.paths).filter((path) => path.includes("mcp"))).toEqual([]);
      });
    });

    describe("credentials", () => {
      test('none: 401 with resource_metadata and scope="work:read"', async () => {
        const res = await post(request("tools/list"), { key: null });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}, scope="work:read"`);
      });

      test("a bad bearer: 401 invalid_token; the key in x-api-key works as well", async () => {
        const bad = await post(request("tools/list"), { key: "wks_" + "z".repeat(40) });
        expect(bad.status).toBe(401);
        expect(bad.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}, error="invalid_token", scope="work:read"`);
        const viaHeader = await post(request("tools/list"), { key: null, headers: { "x-api-key": p.member } });
        expect(viaHeader.status).toBe(200);
      });

      test("a write tool without work:write is an HTTP 403 step-up; read tools still answer", async () => {
        const res = await post(request("tools/call", { name: "propose_topic", arguments: { title: "Nope", body: "x" } }), {
          key: readToken,
        });
        expect(res.status).toBe(403);
        expect(res.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", scope="work:read work:write", ${METADATA}`);
        const read = await call("search_topics", { query: "invoices" }, readToken);
        expect(read.isError).toBeUndefined();
      });

      test("the key's workspace is the workspace: another workspace's topics are not found", async () => {
        const other = await t.bootstrap("agents-elsewhere");
        const res = await call("get_topic", { slug: "how-invoices-are-numbered" }, other.key);
        expect(res.isError).toBe(true);
        expect(JSON.parse(res.content[0].text).error.code).toBe("NOT_FOUND");
      });

      test("calls count against the credential's rate limit", async () => {
        const res = await post(request("ping"));
        expect(Number(res.headers.get("ratelimit-limit"))).toBeGreaterThan(0);
        expect(res.headers.get("ratelimit-remaining")).not.toBeNull();
      });
    });

    describe("tools", () => {
      test("search_topics: topics with their trust verdicts, as structuredContent and text", async () => {
        const r = await call("search_topics", { query: "invoices", limit: 5 });
        expect(r.structuredContent.topics.map((x: any) => x.slug)).toContain("how-invoices-are-numbered");
        expect(r.structuredContent.topics.find((x: any) => x.slug === "how-invoices-are-numbered").trust).toBe("reviewed");
        expect(JSON.parse(r.content[0].text)).toEqual(r.structuredContent);
        const tagged = await call("search_topics", { query: "invoices", tags: ["billing"] });
        expect(tagged.structuredContent.topics.map((x: any) => x.slug)).toEqual(["how-invoices-are-numbered"]);
        const otherTag = await call("search_topics", { query: "invoices", tags: ["hr"] });
        expect(otherTag.structuredContent.topics).toEqual([]);
      });

      test("get_topic: the whole topic with its governance", async () => {
        const r = await call("get_topic", { slug: "how-invoices-are-numbered" });
        expect(r.structuredContent).toMatchObject({
          title: "How invoices are numbered",
          trust: "reviewed",
          body: expect.stringContaining("ledger"),
        });
        expect(r.structuredContent.governance.authoritative).toBe(true);
      });

      test("retrieve_context: a new session when none is given, and no topic twice in one session", async () => {
        const first = await call("retrieve_context", { question: "how are invoices numbered", paths: ["src/billing/tax.ts"] });
        const session = first.structuredContent.session;
        expect(session).toStartWith("mcp-");
        const slugs = first.structuredContent.topics.map((x: any) => x.slug);
        expect(slugs).toContain("how-invoices-are-numbered");
        expect(slugs).toContain("tax-rules");
        expect(first.structuredContent.topics[0].trust).toBeDefined();
        const again = await call("retrieve_context", { question: "how are invoices numbered", paths: ["src/billing/tax.ts"], session });
        expect(again.structuredContent.session).toBe(session);
        expect(again.structuredContent.topics).toEqual([]);
        expect(again.structuredContent.skipped_delivered.sort()).toEqual([...slugs].sort());
        const fresh = await call("retrieve_context", { paths: ["src/billing/tax.ts"], token_budget: 500 });
        expect(fresh.structuredContent.session).not.toBe(session);
        expect(fresh.structuredContent.budget_tokens).toBe(500);
      });

      test("match_files: each path's topics with their trust verdicts", async () => {
        const r = await call("match_files", { paths: ["src/billing/tax.ts", "src/auth/login.ts"] });
        const [tax, login] = r.structuredContent.files;
        expect(tax.topics.map((x: any) => [x.slug, x.trust])).toEqual([["how-invoices-are-numbered", "reviewed"], [
          "tax-rules",
          "proposed",
        ]]);
        expect(login.topics.map((x: any) => x.slug)).toEqual(["login-flow"]);
        expect([r.structuredContent.view, tax.total, login.total]).toEqual(["full", 2, 1]);
        const cut = await call("match_files", { paths: ["src/billing/tax.ts"], limit_per_file: 1 });
        expect(cut.structuredContent.files).toEqual([{ path: "src/billing/tax.ts", total: 2, topics: [tax.topics[0]] }]);
      });

      test("propose_topic: a proposed topic, authored by the key's person", async () => {
        const r = await call("propose_topic", { title: "Refunds go through the ledger", body: "Always.", tags: ["Billing"] });
        expect(r.structuredContent).toMatchObject({ status: "proposed", trust: "proposed", tags: ["billing"] });
        const read = await t.call("GET", `${ws}/topics/${r.structuredContent.slug}`, { key: p.owner });
        expect(read.status).toBe(200);
        expect(read.body.status).toBe("proposed");
      });

      test("suggest_edit: an open proposal; the topic itself unchanged", async () => {
        const r = await call("suggest_edit", {
          slug: "tax-rules",
          summary: "Mention rounding",
          patch: { body: "Tax is computed per line, rounded half up." },
        });
        expect(r.structuredContent).toMatchObject({ status: "open", topic_slug: "tax-rules", summary: "Mention rounding" });
        const topic = await t.call("GET", `${ws}/topics/tax-rules`, { key: p.owner });
        expect(topic.body.body).toBe("Tax is computed per invoice line.");
      });

      test("bad arguments are a tool result with isError (an unknown field too); an unknown tool is -32602", async () => {
        for (
          const [tool, args] of [["get_topic", {}], ["search_topics", { query: "x", verbose: true }], ["match_files", {
            paths: [],
          }]] as const
        ) {
          const r = await call(tool, args);
          expect(r.isError).toBe(true);
          expect(JSON.parse(r.content[0].text).error.code).toBe("VALIDATION_FAILED");
        }
        const noQuestion = await call("retrieve_context", {});
        expect(noQuestion.isError).toBe(true);
        const missing = await call("get_topic", { slug: "no-such-topic" });
        expect(JSON.parse(missing.content[0].text).error.code).toBe("NOT_FOUND");
        const unknown = await post(request("tools/call", { name: "drop_database", arguments: {} }));
        expect(unknown.body.error.code).toBe(-32602);
      });
    });
  });
}
