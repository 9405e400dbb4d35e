import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/**
 * The OpenAPI document as client generators read it, and the server keeping to it: parameters
 * declared with their real constraints, public operations saying so, create links, and 405 for a
 * method a known path does not declare (docs/decisions/014-openapi-conformance.md).
 */
let t: TestApp;
let doc: any;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  doc = (await t.call("GET", "/openapi.json")).body;
  key = (await t.bootstrap("conform")).key;
});

const param = (path: string, method: string, name: string) =>
  doc.paths[`/api/v1${path}`][method].parameters.find((p: any) => p.name === name);

describe("the OpenAPI document", () => {
  test("has a server entry and declares public operations with an explicit security", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
    for (
      const [path, method] of [["/health", "get"], ["/version", "get"], ["/webhooks/code-host", "post"], ["/s/{token}", "get"]] as const
    ) {
      expect(doc.paths[`/api/v1${path}`][method].security).toEqual([]);
    }
    // Creating a workspace is public, and a credential makes its person the owner: optional security.
    expect(doc.paths["/api/v1/workspaces"].post.security).toEqual([{}, { apiKey: [] }, { bearer: [] }, { session: [] }, {
      oauth2: ["work:read", "work:write"],
    }]);
    // Any credential: the key in x-api-key or as Authorization: Bearer, the dashboard session, or an
    // OAuth token with the scopes the operation takes.
    expect(doc.paths["/api/v1/workspaces/{slug}"].get.security).toEqual([{ apiKey: [] }, { bearer: [] }, { session: [] }, {
      oauth2: ["work:read"],
    }]);
    expect(doc.paths["/api/v1/workspaces/{slug}/topics/{topic}/relations"].post.security).toContainEqual({
      oauth2: ["work:read", "topics:write"],
    });
    expect(doc.paths["/.well-known/oauth-protected-resource"].get.security).toEqual([]);
  });

  test("the session cookie: a scheme of its own, on every operation a person may call, never on the operator's", () => {
    expect(doc.components.securitySchemes.session).toMatchObject({ type: "apiKey", in: "cookie", name: "wks_session" });
    expect(doc.components.securitySchemes.session.description).toContain("SameSite=Lax");
    expect(doc.components.securitySchemes.session.description).toContain("Origin");
    const operator = /^\/api\/v1\/(platform\/|workspaces\/\{slug\}\/radar\/credits\/grant$)/;
    let scoped = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const schemes = (op.security ?? []).flatMap((s: object) => Object.keys(s));
        const session = schemes.includes("session");
        if (operator.test(path)) expect({ path, method, session }).toEqual({ path, method, session: false });
        else if (path.startsWith("/api/v1/workspaces/{slug}") && !/\/oauth\/(authorize|register|token|revoke|clients)/.test(path)) {
          scoped++;
          expect({ path, method, session }).toEqual({ path, method, session: true });
        }
        // Every unsafe operation the cookie may ride documents the Origin rule's 403.
        if (session && ["post", "put", "patch", "delete"].includes(method)) {
          expect({ path, method, forbidden: "403" in op.responses }).toEqual({ path, method, forbidden: true });
        }
      }
    }
    expect(scoped).toBeGreaterThan(100);
    for (const path of ["/api/v1/me", "/api/v1/oauth/authorize", "/api/v1/workspaces/{slug}/oauth/authorize"]) {
      const op = doc.paths[path].post ?? doc.paths[path].get;
      expect(op.security).toContainEqual({ session: [] });
    }
  });

  test("documents the event stream's 200 as text/event-stream", () => {
    const ok = doc.paths["/api/v1/workspaces/{slug}/events/stream"].get.responses["200"];
    expect(Object.keys(ok.content)).toEqual(["text/event-stream"]);
  });

  test("declares query parameters with their types and bounds", () => {
    expect(param("/workspaces/{slug}/topics", "get", "limit").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200 });
    expect(param("/workspaces/{slug}/topics", "get", "offset").schema).toMatchObject({ type: "integer", minimum: 0, maximum: 10000 });
    expect(param("/workspaces/{slug}/topics/search", "get", "limit").schema).toMatchObject({ type: "integer", maximum: 100 });
    expect(param("/workspaces/{slug}/topics", "get", "status").schema.enum).toEqual(["draft", "proposed", "reviewed", "archived"]);
    expect(param("/workspaces/{slug}/topics", "get", "stale").schema.type).toBe("boolean");
    expect(param("/workspaces/{slug}/topics/graph", "get", "depth").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 3 });
    expect(param("/workspaces/{slug}/collections/{id}/records/{recordId}", "get", "max_bytes").schema).toMatchObject({
      minimum: 256,
      maximum: 1048576,
    });
    expect(param("/workspaces/{slug}/collections", "get", "updated_after").schema.format).toBe("date-time");
    expect(param("/workspaces/{slug}/collections", "get", "cursor").schema.format).toBe("uuid");
  });

  test("links each create to the operations on what it created", () => {
    const links = doc.paths["/api/v1/workspaces/{slug}/collections"].post.responses["201"].links;
    expect(links.getApiV1WorkspacesBySlugCollectionsById).toEqual(
      expect.objectContaining({
        operationId: "getApiV1WorkspacesBySlugCollectionsById",
        parameters: { slug: "$request.path.slug", id: "$response.body#/id" },
      }),
    );
    // A topic is addressed by its slug.
    const topicLinks = doc.paths["/api/v1/workspaces/{slug}/topics"].post.responses["201"].links;
    expect(topicLinks.getApiV1WorkspacesBySlugTopicsByTopic.parameters).toEqual({
      slug: "$request.path.slug",
      topic: "$response.body#/slug",
    });
    const ids = new Set(Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId)));
    for (const item of Object.values(doc.paths) as any[]) {
      for (const op of Object.values(item) as any[]) {
        for (const link of Object.values(op.responses?.["201"]?.links ?? {}) as any[]) expect(ids.has(link.operationId)).toBe(true);
      }
    }
  });
});

describe("the server keeps to the declared parameters", () => {
  test("a value valid by the document is accepted, one outside it is a 400 naming the parameter", async () => {
    expect((await t.call("GET", "/workspaces/conform/topics?limit=200&offset=10000&stale=false&status=reviewed", { key })).status).toBe(
      200,
    );
    for (
      const [query, message] of [
        ["limit=201", "Invalid request query: limit: expected an integer from 1 to 200"],
        ["limit=1.5", "Invalid request query: limit: expected an integer from 1 to 200"],
        ["offset=10001", "Invalid request query: offset: expected an integer from 0 to 10000"],
        ["stale=yes", "Invalid request query: stale: expected true or false"],
        ["status=gone", "Invalid request query: status: expected one of draft, proposed, reviewed, archived"],
      ]
    ) {
      const res = await t.call("GET", `/workspaces/conform/topics?${query}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", message });
    }
  });

  test("If-Match takes the forms the document declares", async () => {
    const topic = (await t.call("POST", "/workspaces/conform/topics", { key, body: { title: "Versioned", body: "text" } })).body;
    const ok = await t.call("PATCH", `/workspaces/conform/topics/${topic.slug}`, {
      key,
      body: { title: "Versioned twice" },
      headers: { "if-match": `W/"${topic.version}"` },
    });
    expect(ok.status).toBe(200);
    const bad = await t.call("PATCH", `/workspaces/conform/topics/${topic.slug}`, {
      key,
      body: { title: "x" },
      headers: { "if-match": "version three" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ path: "headers/if-match" })]);
  });
});

describe("405 Method Not Allowed", () => {
  test("a known path asked with an undeclared method answers 405 with Allow, in the error envelope", async () => {
    for (const method of ["TRACE", "PUT", "DELETE"]) {
      const res = await t.call(method, "/health");
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(res.body.error).toMatchObject({ code: "METHOD_NOT_ALLOWED", details: [] });
      expect(res.body.error.request_id).toBe(res.headers.get("x-request-id"));
    }
    const collections = await t.call("DELETE", "/workspaces/conform/collections", { key });
    expect(collections.status).toBe(405);
    expect(collections.headers.get("allow")!.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);
  });

  test("a literal path is not mistaken for a parameter route of another method", async () => {
    // PATCH /collections/{id} exists, but `doctor` is the literal path GET /collections/doctor.
    const res = await t.call("PATCH", "/workspaces/conform/collections/doctor", { key, body: { name: "x" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    // A bad id on a route that does declare the method stays a 400.
    expect((await t.call("PATCH", "/workspaces/conform/collections/not-an-id", { key, body: { name: "x" } })).status).toBe(400);
  });

  test("an unknown path stays a 404", async () => {
    const res = await t.call("TRACE", "/no-such-path");
    expect(res.status).toBe(404);
    expect(res.headers.get("allow")).toBeNull();
    expect(res.body.error.code).toBe("NOT_FOUND");
  });
});
