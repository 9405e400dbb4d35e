import { afterAll, describe, expect, test } from "bun:test";
import { AUTHORITY, type Authority, decideAuthority } from "../../core/access/authority.ts";
import { hasScopesFor, scopesFor } from "../../core/access/scopes.ts";
import { TOOLS } from "../../server/mcp/tools.ts";
import { authorityOf, canonicalPath, ROUTE_AUTHORITIES } from "../../server/http/route-authorities.ts";
import {
  CONSENT_PATHS,
  consentRequest,
  Fixtures,
  OPERATIONS,
  type OperationSpec,
  sharedParam,
} from "../support/authorization-operations.ts";
import {
  type Answer,
  callerOf,
  makeWorld,
  type MatrixRequest,
  PRINCIPAL_KINDS,
  type PrincipalKind,
  type World,
} from "../support/authorization-world.ts";
import { sampleOf } from "../support/sample-body.ts";

/**
 * The authorization matrix (docs/decisions/051-authority-table.md). Every operation of the app's
 * own route table (the built app's `.routes`: a route added without a declared authority fails
 * here) is called by every kind of caller, and the answer is checked against the authority the
 * operation declares (server/http/route-authorities.ts) as the table of core/access/authority.ts
 * decides it: an allowed caller gets the operation's answer (2xx, or its own documented answer,
 * never 401, 403 or 404), a refused one the documented refusal (401; 403, with the
 * `insufficient_scope` challenge naming the scope when a scope is what is missing; 404 for another
 * workspace's credential). In-process, over the memory store.
 */
const started = performance.now();
const world: World = await makeWorld();
const fx = new Fixtures(world, world.a);
await fx.makeShared();
const doc = (await world.t.call("GET", "/openapi.json")).body;

interface Operation {
  method: string;
  /** The registered path, `{param}` form. */
  path: string;
}
const routes: Operation[] = (world.t.app as unknown as { routes: Array<{ method: string; path: string }> }).routes.map((r) => ({
  method: r.method.toUpperCase(),
  path: r.path.replace(/:([A-Za-z]+)/g, "{$1}"),
}));

let requests = 0;
const kindsThatExist = PRINCIPAL_KINDS.filter((k) => k.exists);

type Expectation = { allow: true } | { allow: false; status: number; scope?: string; role?: boolean };

function expectation(authority: Authority, kind: PrincipalKind, op: Operation): Expectation {
  const rule = AUTHORITY[authority];
  const c = kind.credential;
  const unsafe = !["GET", "HEAD", "OPTIONS"].includes(op.method);
  // Tenancy first: another workspace's credential is told the workspace does not exist.
  if (c.type === "foreign" && rule.tenancy && op.path.includes("/workspaces/{slug}")) return { allow: false, status: 404 };
  // MCP refuses another site's page whatever it carries (DNS rebinding).
  if (rule.foreignOriginRefused && c.type === "session" && c.crossSite) return { allow: false, status: 403 };
  // The session's Origin rule: an unsafe request riding the cookie from another site is refused.
  if (c.type === "session" && rule.session && c.crossSite && unsafe) return { allow: false, status: 403 };
  const d = decideAuthority(authority, callerOf(kind));
  if (d.ok) return { allow: true };
  switch (d.refusal) {
    case "unauthenticated":
      return { allow: false, status: 401 };
    case "role":
      return { allow: false, status: 403, role: true };
    case "scope":
      return { allow: false, status: 403, scope: scopesFor(d.operation).join(" ") };
    case "absent":
      return { allow: false, status: 404 };
    case "signature":
      // Unsigned: a webhook's 401, a link's 400 page.
      return { allow: false, status: op.path.startsWith("/api/v1/email/") ? 400 : 401 };
    case "origin":
      return c.type === "session" && !c.crossSite ? { allow: true } : { allow: false, status: 403 };
  }
}

/** What is wrong with `answer` for `expected`, or null. */
function mismatch(expected: Expectation, answer: Answer, spec: OperationSpec): string | null {
  const s = answer.status;
  const summary = () => `${s} ${typeof answer.body === "object" ? JSON.stringify(answer.body?.error ?? answer.body).slice(0, 160) : ""}`;
  if (expected.allow) {
    const own = spec.ownAnswers?.includes(s) ?? false;
    return s < 400 || own ? null : `expected the operation's answer, got ${summary()}`;
  }
  if (s !== expected.status) return `expected ${expected.status}, got ${summary()}`;
  const challenge = answer.headers.get("www-authenticate") ?? "";
  if (expected.scope) {
    if (!challenge.includes('error="insufficient_scope"') || !challenge.includes(`scope="${expected.scope}"`)) {
      return `expected the insufficient_scope challenge for "${expected.scope}", got WWW-Authenticate: ${challenge || "none"}`;
    }
    if (answer.body?.error?.required_scope !== expected.scope) return `expected required_scope "${expected.scope}" in the body`;
  }
  if (expected.role && challenge.includes("insufficient_scope")) {
    return `a role refusal carries no insufficient_scope challenge: ${challenge}`;
  }
  if (s === 401 && !challenge.startsWith("Bearer ")) return `a 401 without its Bearer challenge`;
  return null;
}

/** The request `kind` sends for `op`, with fresh objects when the operation consumes them. */
async function requestFor(op: Operation, spec: OperationSpec, f: Fixtures, kind: PrincipalKind) {
  const canonical = canonicalPath(op.path);
  const fresh = spec.params ? await spec.params(f, kind) : {};
  let path = op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const value = fresh[name] ?? sharedParam(f, op.path, name);
    if (value === undefined) {
      throw new Error(`${op.method} ${op.path}: no object for {${name}} (tests/support/authorization-operations.ts)`);
    }
    return encodeURIComponent(value);
  });
  if (path.endsWith("/*")) path = `${path.slice(0, -1)}api/v1/health`;
  const request: MatrixRequest = { method: op.method, path: path + (spec.query ? await spec.query(f) : "") };
  request.headers = spec.headers ? await spec.headers(f, kind) : {};
  const consentBase = CONSENT_PATHS[`${op.method} ${op.path}`];
  if (consentBase !== undefined) {
    const consent = await consentRequest(f, kind, consentBase.replace("{slug}", f.slug));
    return { ...request, body: consent.body, headers: { ...request.headers, ...consent.headers } };
  }
  if (spec.form) {
    request.rawBody = new URLSearchParams(await spec.form(f, kind)).toString();
    request.headers["content-type"] = "application/x-www-form-urlencoded";
    return request;
  }
  if (spec.raw) {
    const raw = spec.raw();
    request.rawBody = raw.text;
    request.headers["content-type"] = raw.type;
    return request;
  }
  if (spec.body) request.body = await spec.body(f, kind);
  else {
    const schema = doc.paths[canonical]?.[op.method.toLowerCase()]?.requestBody?.content?.["application/json"]?.schema;
    if (schema && op.method !== "GET") request.body = sampleOf(schema, () => world.unique("b"), doc);
  }
  return request;
}

/** Calls `op` with every kind of caller; the list of what did not answer as `authority` says. */
async function runMatrix(op: Operation, authority: Authority, spec: OperationSpec): Promise<string[]> {
  const wrong: string[] = [];
  for (const kind of kindsThatExist) {
    const f = spec.freshSpace ? new Fixtures(world, await world.newSpace()) : fx;
    const request = await requestFor(op, spec, f, kind);
    const answer = await world.send(request, kind, f.space);
    requests++;
    const problem = mismatch(expectation(authority, kind, op), answer, spec);
    if (problem) wrong.push(`${kind.id}: ${problem}`);
  }
  return wrong;
}

describe("the authorization matrix", () => {
  test("every route of the app declares its authority, and every declaration names a route", () => {
    const undeclared = routes.filter((r) => authorityOf(r.method, r.path) === undefined).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
    const registered = new Set(routes.map((r) => `${r.method} ${canonicalPath(r.path)}`));
    const covers = (declared: string) =>
      registered.has(declared) || (declared.endsWith("/*") && [...registered].some((r) => r.startsWith(declared.slice(0, -1))));
    const stale = Object.keys(ROUTE_AUTHORITIES).filter((k) => !covers(k));
    expect(stale).toEqual([]);
    // The request specs name only operations that exist.
    expect(Object.keys(OPERATIONS).filter((k) => !registered.has(k))).toEqual([]);
    expect(routes.length).toBeGreaterThan(190);
    // The OpenAPI document names each operation's authority and the OAuth scopes it takes from the same table.
    const documented: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op?.responses) continue;
        const authority = authorityOf(method, path)!;
        const oauth = op.security?.find((r: Record<string, string[]>) => "oauth2" in r)?.oauth2 ?? null;
        const scopes = AUTHORITY[authority]?.oauth ? scopesFor(AUTHORITY[authority].oauth!) : null;
        const bearer = op.security?.some((r: Record<string, string[]>) => "bearer" in r) ?? false;
        if (op["x-authority"] !== authority || JSON.stringify(oauth) !== JSON.stringify(bearer ? scopes : null)) {
          documented.push(`${method} ${path}: x-authority ${op["x-authority"]}, oauth2 ${JSON.stringify(oauth)}`);
        }
      }
    }
    expect(documented).toEqual([]);
  });

  test("the kinds that cannot exist: a service key authorizes no OAuth client (it is no person)", async () => {
    const fields = {
      client_id: fx.shared.client!,
      redirect_uri: "http://127.0.0.1:8123/cb",
      response_type: "code",
      scope: "work:read",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      decision: "approve",
    };
    const res = await world.t.call("POST", "/oauth/authorize", { key: world.a.keys.service, body: fields });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain("service key");
    expect(PRINCIPAL_KINDS.filter((k) => !k.exists).map((k) => k.id)).toEqual([
      "service token work:read",
      "service token work:read work:write",
      "service token work:read work:write topics:write",
    ]);
  });

  for (const op of routes) {
    const authority = authorityOf(op.method, op.path);
    if (!authority) continue;
    const spec = OPERATIONS[`${op.method} ${canonicalPath(op.path)}`] ?? {};
    test(`${op.method} ${op.path}: ${authority}`, async () => {
      expect(await runMatrix(op, authority, spec)).toEqual([]);
      for (const variant of spec.variants ?? []) {
        const asked = { ...spec, body: variant.body, params: variant.params ?? spec.params };
        expect({ variant: variant.name, wrong: await runMatrix(op, variant.authority, asked) }).toEqual({
          variant: variant.name,
          wrong: [],
        });
      }
      if (authority === "signature") {
        expect(spec.signed).toBeDefined();
        const signed = await world.send(await spec.signed!(fx), PRINCIPAL_KINDS.find((k) => k.credential.type === "none")!);
        requests++;
        expect({ status: signed.status, body: signed.status < 300 ? "ok" : signed.body }).toEqual({
          status: signed.status < 300 ? signed.status : 200,
          body: "ok",
        });
      }
    });
  }
});

describe("an owner's read-only OAuth token (ADR 051)", () => {
  test("is refused every owner/admin governance action, with the step-up challenge, and the topic does not change", async () => {
    const readOnly = PRINCIPAL_KINDS.find((k) => k.id === "owner token work:read")!;
    const writer = PRINCIPAL_KINDS.find((k) => k.id === "owner token work:read work:write")!;
    const from = { reject: "proposed", approve: "draft", unvouch: "reviewed", "vouch-ack": "reviewed", restore: "archived" } as const;
    for (const [action, status] of Object.entries(from)) {
      const topic = await fx.topic(status);
      const path = `/api/v1/workspaces/${fx.slug}/topics/${topic}`;
      const before = await world.t.call("GET", `/workspaces/${fx.slug}/topics/${topic}`, { key: world.a.keys.owner });
      const refused = await world.send({ method: "POST", path: `${path}/${action}`, body: {} }, readOnly);
      expect({ action, status: refused.status, challenge: refused.headers.get("www-authenticate") }).toEqual({
        action,
        status: 403,
        challenge: expect.stringContaining('error="insufficient_scope", scope="work:read work:write"'),
      });
      const after = await world.t.call("GET", `/workspaces/${fx.slug}/topics/${topic}`, { key: world.a.keys.owner });
      expect({ action, status: after.body.status, version: after.body.version }).toEqual({
        action,
        status: before.body.status,
        version: before.body.version,
      });
      // Stepped up to work:write, the same owner may.
      expect({ action, status: (await world.send({ method: "POST", path: `${path}/${action}`, body: {} }, writer)).status }).toEqual({
        action,
        status: 201,
      });
    }
  });
});

/**
 * The same matrix over the MCP tools (ADR 027): `tools/list` and `tools/call` of every tool, by
 * every kind of caller. The endpoint's authority (`agent`) decides who is heard at all; then a
 * tool's declared operation (server/mcp/tools.ts) its scopes: a read-only token is shown the read
 * tools only, and calling a write tool is the step-up 403.
 */
describe("the authorization matrix over the MCP tools", () => {
  const mcp: Operation = { method: "POST", path: "/mcp" };
  /** Arguments each tool is called with; a new tool must name its own here. */
  const ARGS: Record<string, () => Record<string, unknown>> = {
    search_topics: () => ({ query: "body" }),
    get_topic: () => ({ slug: fx.shared.topic }),
    retrieve_context: () => ({ question: "body words" }),
    match_files: () => ({ paths: ["src/app.ts"] }),
    propose_topic: () => ({ title: world.unique("Proposed"), body: "What an agent learned" }),
    suggest_edit: () => ({ slug: fx.shared.topic, summary: "Fix", patch: { body: world.unique("Fixed body") } }),
  };
  /** Tools that name an object of the workspace asked about: another workspace's credential does not find it. */
  const NAMES_AN_OBJECT = new Set(["get_topic", "suggest_edit"]);
  const rpc = (method: string, params: Record<string, unknown> = {}): MatrixRequest => ({
    method: "POST",
    path: "/mcp",
    body: { jsonrpc: "2.0", id: 1, method, params },
  });

  test("every tool is called in the matrix", () => {
    expect(TOOLS.map((t) => t.name).filter((name) => !ARGS[name])).toEqual([]);
  });

  test("tools/list shows each caller the tools it may call", async () => {
    const wrong: string[] = [];
    for (const kind of kindsThatExist) {
      const expected = expectation("agent", kind, mcp);
      const answer = await world.send(rpc("tools/list"), kind);
      requests++;
      if (!expected.allow) {
        const problem = mismatch(expected, answer, {});
        if (problem) wrong.push(`${kind.id}: ${problem}`);
        continue;
      }
      const caller = callerOf(kind) as Parameters<typeof hasScopesFor>[0];
      const listed = answer.body?.result?.tools?.map((t: { name: string }) => t.name);
      const callable = TOOLS.filter((t) => hasScopesFor(caller, t.operation)).map((t) => t.name);
      if (answer.status !== 200 || JSON.stringify(listed) !== JSON.stringify(callable)) {
        wrong.push(`${kind.id}: expected ${JSON.stringify(callable)}, got ${answer.status} ${JSON.stringify(listed ?? answer.body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  for (const tool of TOOLS) {
    test(`tools/call ${tool.name}: ${tool.operation}`, async () => {
      const wrong: string[] = [];
      for (const kind of kindsThatExist) {
        const agent = expectation("agent", kind, mcp);
        const caller = callerOf(kind) as Parameters<typeof hasScopesFor>[0];
        const expected: Expectation = !agent.allow || hasScopesFor(caller, tool.operation)
          ? agent
          : { allow: false, status: 403, scope: scopesFor(tool.operation).join(" ") };
        const answer = await world.send(rpc("tools/call", { name: tool.name, arguments: ARGS[tool.name]!() }), kind);
        requests++;
        const problem = mismatch(expected, answer, {});
        if (problem) wrong.push(`${kind.id}: ${problem}`);
        else if (expected.allow) {
          const result = answer.body?.result;
          const foreign = kind.credential.type === "foreign" && NAMES_AN_OBJECT.has(tool.name);
          // Another workspace's owner works in their own workspace: this one's topic is not found there.
          const error = result?.isError ? JSON.parse(result.content[0].text).error.code : null;
          if (foreign ? error !== "NOT_FOUND" : error !== null) wrong.push(`${kind.id}: the tool answered ${result?.content?.[0]?.text}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

afterAll(() => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `authorization matrix: ${routes.length} operations × ${kindsThatExist.length} kinds of caller (${PRINCIPAL_KINDS.length} named, ${
      PRINCIPAL_KINDS.length - kindsThatExist.length
    } cannot exist): ${requests} requests in ${seconds} s`,
  );
});
