import { describe, expect, test } from "bun:test";
import { WATCHERS_DEPRECATION } from "../../server/http/deprecations.ts";
import { type JsonSchema, sampleOf, stringOf } from "../support/openapi-samples.ts";
import { makeTestApp } from "../support/test-app.ts";

/**
 * `/watchers`, the deprecated alias of `/topics`: every `/topics` operation of the app's route
 * table has its twin under `/watchers`, with the same method, sub-path, parameters, body and
 * responses, marked deprecated in the OpenAPI document and answering with `Deprecation`, `Sunset`
 * and a `successor-version` link at runtime. Derived from the route table, so a route added under
 * `/topics` alone fails here.
 */
const t = await makeTestApp();
const doc = (await t.call("GET", "/openapi.json")).body;
const { slug, key } = await t.bootstrap("twins");
const topic = (await t.call("POST", `/workspaces/${slug}/topics`, { key, body: { title: "Twin topic" } })).body.slug as string;

const TOPICS = /^\/api\/v1\/workspaces\/(:slug|\{slug\})\/topics(?=\/|$)/;
const twinOf = (path: string) => path.replace(/\/topics(?=\/|$)/, "/watchers");

const routes = (t.app as unknown as { routes: Array<{ method: string; path: string }> }).routes;
const routeKeys = new Set(routes.map((r) => `${r.method} ${r.path}`));
const originals = routes.filter((r) => TOPICS.test(r.path));

interface Operation {
  method: string;
  path: string;
  op: JsonSchema;
}
const operations: Operation[] = Object.entries<JsonSchema>(doc.paths)
  .filter(([path]) => TOPICS.test(path))
  .flatMap(([path, item]) =>
    Object.entries<JsonSchema>(item).filter(([, op]) => op?.responses).map(([method, op]) => ({ method, path, op }))
  );

/**
 * What a twin must repeat of its original: everything a client sends and reads, not its labels.
 * A twin's response links name its sibling twins: read as the originals they stand for.
 */
const contract = (op: JsonSchema) =>
  JSON.parse(
    JSON.stringify({ parameters: op.parameters, requestBody: op.requestBody, responses: op.responses, security: op.security })
      .replace(/\/watchers(?=[/"\s])/g, "/topics")
      .replace(/BySlugWatchers/g, "BySlugTopics"),
  );

describe("the /watchers twins", () => {
  test("the route table has /topics routes (the sharing ones among them)", () => {
    expect(originals.length).toBeGreaterThan(30);
    for (const sub of ["/:topic/share", "/:topic/share-with"]) expect(originals.some((r) => r.path.endsWith(sub))).toBe(true);
    expect(operations.length).toBe(originals.length);
  });

  test("every /topics route of the app has its /watchers twin, with the same method and sub-path; no twin without an original", () => {
    const missing = originals.filter((r) => !routeKeys.has(`${r.method} ${twinOf(r.path)}`)).map((r) => `${r.method} ${twinOf(r.path)}`);
    expect(missing).toEqual([]);
    const twins = routes.filter((r) => /^\/api\/v1\/workspaces\/:slug\/watchers(?=\/|$)/.test(r.path));
    expect(twins.length).toBe(originals.length);
  });

  test("in the OpenAPI document each twin has its original's parameters, body, responses and security, and is deprecated", () => {
    for (const { method, path, op } of operations) {
      const twin = doc.paths[twinOf(path)]?.[method];
      expect({ method, path: twinOf(path), found: !!twin }).toEqual({ method, path: twinOf(path), found: true });
      expect({ method, path, ...contract(twin) }).toEqual({ method, path, ...contract(op) });
      expect({ method, path, deprecated: twin.deprecated }).toEqual({ method, path, deprecated: true });
      expect({ method, path, deprecated: op.deprecated ?? false }).toEqual({ method, path, deprecated: false });
    }
  });

  /** A request of the operation at `path`: the workspace and topic of this test, a small valid body. */
  function requestOf(method: string, path: string, op: JsonSchema): Request {
    const url = new URL(`http://localhost${path}`);
    for (const p of op.parameters ?? []) {
      if (p.in !== "path") continue;
      const v = p.name === "slug" ? slug : p.name === "topic" ? topic : stringOf(p.schema);
      url.pathname = url.pathname.replace(`%7B${p.name}%7D`, encodeURIComponent(v));
    }
    const headers: Record<string, string> = { "x-api-key": key };
    const content: Record<string, { schema: JsonSchema }> | undefined = op.requestBody?.content;
    const json = content?.["application/json"];
    if (json) headers["content-type"] = "application/json";
    return new Request(url, { method: method.toUpperCase(), headers, body: json ? JSON.stringify(sampleOf(json.schema)) : undefined });
  }

  test("at runtime every twin is routed and answers with Deprecation, Sunset and its successor; the original with none", async () => {
    const sunset = new Date(WATCHERS_DEPRECATION.sunset_at).toUTCString();
    const deprecation = `@${Date.parse(WATCHERS_DEPRECATION.deprecated_at) / 1000}`;
    // Reads and the harmless before the topic's own delete, which would leave the rest a 404 (still routed).
    const ordered = [...operations].sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete"));
    for (const { method, path, op } of ordered) {
      const original = await t.app.handle(requestOf(method, path, op));
      const res = await t.app.handle(requestOf(method, twinOf(path), op));
      const body = await res.json().catch(() => null);
      const answer = {
        method,
        path: twinOf(path),
        routed: !(res.status === 404 && body?.error?.message === "Route not found") && res.status !== 405,
        deprecation: res.headers.get("deprecation"),
        sunset: res.headers.get("sunset"),
        successor: res.headers.get("link")?.includes("/topics") && res.headers.get("link")?.endsWith('; rel="successor-version"'),
        original: original.headers.get("sunset"),
      };
      expect(answer).toEqual({ method, path: twinOf(path), routed: true, deprecation, sunset, successor: true, original: null });
    }
  });

  test("a twin's refusals before its route runs carry them too: a body that is not JSON, an undeclared method", async () => {
    const sunset = new Date(WATCHERS_DEPRECATION.sunset_at).toUTCString();
    const withBody = operations.filter(({ op }) => op.requestBody?.content?.["application/json"]);
    expect(withBody.length).toBeGreaterThan(5);
    for (const { method, path, op } of withBody) {
      const sent = requestOf(method, twinOf(path), op);
      const res = await t.app.handle(new Request(sent.url, { method: sent.method, headers: sent.headers, body: "{not json" }));
      expect({ method, path, status: res.status, sunset: res.headers.get("sunset") }).toEqual({ method, path, status: 400, sunset });
    }
    const undeclared = await t.call("PUT", `/workspaces/${slug}/watchers/${topic}`, { key });
    expect({ status: undeclared.status, sunset: undeclared.headers.get("sunset") }).toEqual({ status: 405, sunset });
    expect((await t.call("PUT", `/workspaces/${slug}/topics/${topic}`, { key })).headers.get("sunset")).toBeNull();
  });
});
