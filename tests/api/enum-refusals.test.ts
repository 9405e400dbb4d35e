import { beforeAll, describe, expect, test } from "bun:test";
import { allowedValues } from "../../core/kernel/schema-errors.ts";
import { hubSignatureSha1 } from "../../core/webhooks/signature.ts";
import { type JsonSchema, sampleOf, stringOf } from "../support/openapi-samples.ts";
import { makeTestApp } from "../support/test-app.ts";

/**
 * Every enum of the API, found in the served OpenAPI document, refused naming its allowed values:
 * each operation parameter and request-body property (nested, in arrays, in a union's variant)
 * whose schema is an enum or a union of constants gets a value outside it in an otherwise valid
 * request, and the answer is a 400 VALIDATION_FAILED whose detail at that property names every
 * allowed value. A new enum is covered by being declared. (docs/decisions/053-schema-error-messages.md)
 */
const OPERATOR_KEY = "operator-key-operator-key-operator-key-0123";
const SUPPORT_SECRET = "support-secret-support-secret";
const BAD = "not-an-allowed-value";

const t = await makeTestApp(undefined, { platformAdminKey: OPERATOR_KEY, supportWebhookSecret: SUPPORT_SECRET });
const doc = (await t.call("GET", "/openapi.json")).body;

type Step = { prop: string } | { item: true } | { variant: number };
interface EnumSite {
  method: string;
  /** The document's path, `/api/v1/...`. */
  path: string;
  op: JsonSchema;
  where: "path" | "query" | "header" | "body";
  /** A parameter's name, or the steps from the body's root to the property. */
  name: string;
  steps: Step[];
  contentType?: string;
  values: unknown[];
}

/** The enums of the document: every parameter and request-body property whose schema allows a fixed set of values. */
function enumSites(): EnumSite[] {
  const sites: EnumSite[] = [];
  for (const [path, item] of Object.entries<JsonSchema>(doc.paths)) {
    for (const [method, op] of Object.entries<JsonSchema>(item)) {
      if (!op?.responses) continue;
      for (const p of op.parameters ?? []) {
        const values = allowedValues(p.schema);
        if (values) sites.push({ method, path, op, where: p.in, name: p.name, steps: [], values });
      }
      const content: Record<string, { schema: JsonSchema }> = op.requestBody?.content ?? {};
      const contentType = Object.keys(content).find((c) => c.includes("json")) ?? Object.keys(content)[0];
      if (!contentType) continue;
      walkBody(content[contentType]!.schema, [], (steps, values) => {
        sites.push({ method, path, op, where: "body", name: pointer(steps), steps, contentType, values });
      });
    }
  }
  return sites;
}

function walkBody(schema: JsonSchema, steps: Step[], found: (steps: Step[], values: unknown[]) => void): void {
  const values = allowedValues(schema);
  if (values) return void (steps.length > 0 && found(steps, values));
  for (const [name, s] of Object.entries<JsonSchema>(schema.properties ?? {})) walkBody(s, [...steps, { prop: name }], found);
  if (schema.items) walkBody(schema.items, [...steps, { item: true }], found);
  (schema.anyOf ?? schema.oneOf ?? []).forEach((s: JsonSchema, i: number) => walkBody(s, [...steps, { variant: i }], found));
}

/** The JSON pointer of the steps (an array's first item; a variant adds nothing). */
const pointer = (steps: Step[]) => steps.map((s) => ("prop" in s ? `/${s.prop}` : "item" in s ? "/0" : "")).join("");

/** The smallest valid value of `schema` with `bad` at the end of `steps`. */
function withValueAt(schema: JsonSchema, steps: Step[], bad: unknown): unknown {
  const [step, ...rest] = steps;
  if (!step) return bad;
  if ("variant" in step) return withValueAt((schema.anyOf ?? schema.oneOf)[step.variant], rest, bad);
  if ("item" in step) {
    const items = sampleOf(schema) as unknown[];
    items[0] = withValueAt(schema.items, rest, bad);
    return items;
  }
  const object = sampleOf({ ...schema, type: "object" }) as Record<string, unknown>;
  object[step.prop] = withValueAt(schema.properties[step.prop], rest, bad);
  return object;
}

const { slug, key: owner } = await t.bootstrap("enums");
let oauthClientId: string;
beforeAll(async () => {
  const client = await t.call("POST", "/oauth/register", {
    body: { client_name: "Enum test", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" },
  });
  expect(client.status).toBe(201);
  oauthClientId = client.body.client_id;
});

/** The request of `site` with `value` in the enum's place and valid values everywhere else. */
async function requestOf(site: EnumSite, value: unknown): Promise<Request> {
  const headers = new Headers();
  const url = new URL(`http://localhost${site.path}`);
  for (const p of site.op.parameters ?? []) {
    const mine = p.in === site.where && p.name === site.name;
    if (!mine && !p.required) continue;
    const v = mine
      ? String(value)
      : p.in === "path" && p.name === "slug" && site.path.startsWith("/api/v1/workspaces/")
      ? slug
      : stringOf(p.schema.type === "string" ? p.schema : { ...p.schema, type: "string" });
    if (p.in === "path") url.pathname = url.pathname.replace(`%7B${p.name}%7D`, encodeURIComponent(v));
    else if (p.in === "query") url.searchParams.set(p.name, v);
    else if (p.in === "header") headers.set(p.name, v);
  }
  let body: BodyInit | undefined;
  const content = site.op.requestBody?.content;
  const contentType = site.contentType ?? (content && Object.keys(content).find((c) => c.includes("json")));
  if (contentType) {
    const schema = content[contentType].schema;
    const json = (site.where === "body" ? withValueAt(schema, site.steps, value) : sampleOf(schema)) as Record<string, unknown>;
    headers.set("content-type", contentType);
    if (contentType === "application/x-www-form-urlencoded") {
      // The token endpoint authenticates its client before it reads the grant.
      if (site.path.endsWith("/oauth/token")) json.client_id = oauthClientId;
      body = new URLSearchParams(Object.entries(json).map(([k, v]) => [k, String(v)])).toString();
    } else body = JSON.stringify(json);
  }
  // Who may call it: nobody for a public operation, the operator for the operator's, else the workspace's owner.
  const schemes = (site.op.security ?? []).flatMap((s: object) => Object.keys(s));
  if (/^\/api\/v1\/(platform\/|workspaces\/\{slug\}\/radar\/credits\/grant$)/.test(site.path)) headers.set("x-api-key", OPERATOR_KEY);
  else if (schemes.includes("apiKey")) headers.set("x-api-key", owner);
  if (site.path === "/api/v1/webhooks/support" && typeof body === "string") {
    headers.set("x-hub-signature", await hubSignatureSha1(SUPPORT_SECRET, new TextEncoder().encode(body)));
  }
  return new Request(url, { method: site.method.toUpperCase(), headers, body });
}

const sites = enumSites();
/** Where Elysia says a parameter is. */
const ELYSIA_WHERE = { path: "params", query: "query", header: "headers" } as const;
const names = (values: unknown[]) => values.filter((v) => v !== null).map(String);
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `text` names `value` as a word of its own (`git` is not found in `github`). */
const mentions = (text: string, value: string) => new RegExp(`(^|[^\\w.-])${escapeRegex(value)}([^\\w.-]|$)`).test(text);

describe("enum refusals name the allowed values", () => {
  test("the document declares enums in parameters, bodies, nested objects, arrays and unions", () => {
    expect(sites.filter((s) => s.where === "query").length).toBeGreaterThan(10);
    expect(sites.filter((s) => s.where === "body").length).toBeGreaterThan(50);
    expect(sites.some((s) => s.steps.some((x) => "item" in x))).toBe(true);
    expect(sites.some((s) => s.steps.some((x) => "variant" in x))).toBe(true);
    expect(sites.some((s) => s.steps.filter((x) => "prop" in x).length > 1)).toBe(true);
  });

  for (const site of sites) {
    const where = site.where === "body" ? `body ${site.name}` : `${site.where} parameter ${site.name}`;
    test(`${site.method.toUpperCase()} ${site.path}: ${where} (${names(site.values).join(", ")})`, async () => {
      const res = await t.app.handle(await requestOf(site, BAD));
      const body = await res.json();
      expect({ status: res.status, body }).toMatchObject({ status: 400 });
      if (site.path.endsWith("/oauth/token")) {
        // RFC 6749 §5.2: the token endpoint answers in OAuth's own error format.
        expect(body.error).toBe("unsupported_grant_type");
        for (const v of names(site.values)) {
          expect({ v, description: body.error_description }).toSatisfy(() => mentions(body.error_description, v));
        }
        return;
      }
      expect(body.error.code).toBe("VALIDATION_FAILED");
      const path = site.where === "body" ? `body${site.name}` : `${ELYSIA_WHERE[site.where]}/${site.name}`;
      // A receiver that checks its signature before the body reads the body in core: its pointers have no `body` in front.
      const at = (d: { path: string }) => d.path.replace(/^(?=\/)/, "body");
      const details: Array<{ path: string; message: string }> = body.error.details;
      // Nothing else of the request was refused: the enum is what failed.
      for (const d of details) {
        expect({ path: at(d), body }).toMatchObject({ path: expect.stringMatching(new RegExp(`^${escapeRegex(path)}`)) });
      }
      const named = details.find((d) => at(d) === path)?.message ?? "";
      for (const v of names(site.values)) expect({ path, v, named }).toSatisfy(() => mentions(named, v));
      if (site.where !== "body") { for (const v of names(site.values)) expect(mentions(body.error.message, v)).toBe(true); }
    });
  }
});

/** One MCP message to `/mcp` as the owner. */
async function mcp(method: string, params: Record<string, unknown>) {
  const res = await t.app.handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${owner}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
  );
  return (await res.json()).result;
}

const tools: Array<{ name: string; inputSchema: JsonSchema }> = (await mcp("tools/list", {})).tools;
const toolSites = tools.flatMap((tool) => {
  const found: Array<{ tool: string; schema: JsonSchema; steps: Step[]; values: unknown[] }> = [];
  walkBody(tool.inputSchema, [], (steps, values) => found.push({ tool: tool.name, schema: tool.inputSchema, steps, values }));
  return found;
});

describe("MCP tools' enum refusals name the allowed values", () => {
  test("the tools declare enums", () => expect(toolSites.length).toBeGreaterThan(0));
  for (const site of toolSites) {
    test(`${site.tool}: ${pointer(site.steps)} (${names(site.values).join(", ")})`, async () => {
      const result = await mcp("tools/call", { name: site.tool, arguments: withValueAt(site.schema, site.steps, BAD) });
      expect(result.isError).toBe(true);
      const { error } = JSON.parse(result.content[0].text);
      expect(error.code).toBe("VALIDATION_FAILED");
      for (const d of error.details) expect(d.path).toStartWith(pointer(site.steps));
      const named = error.details.find((d: { path: string }) => d.path === pointer(site.steps))?.message ?? "";
      for (const v of names(site.values)) expect({ v, named }).toSatisfy(() => mentions(named, v));
    });
  }
});
