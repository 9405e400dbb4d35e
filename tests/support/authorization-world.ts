import type { Caller } from "../../core/access/authority.ts";
import type { Principal } from "../../core/access/principal.ts";
import { API_KEY_SCOPES, type Scope } from "../../core/access/scopes.ts";
import { createSession } from "../../core/identity/mod.ts";
import { createOidcProvider } from "../../adapters/oidc/oauth4webapi-provider.ts";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { issueTokens } from "./oauth-tokens.ts";
import { makeTestApp, type TestApp } from "./test-app.ts";

/**
 * The world of the authorization matrix (tests/api/authorization-matrix.test.ts): the real app
 * in-process over the memory store, with every receiver's secret and the operator key set, a
 * workspace ("space") with an owner, an admin, a member and a service key, and every kind of
 * caller that can exist: keys, OAuth tokens of three scope sets, dashboard sessions, the operator
 * key, nobody, and another workspace's owner. Credentials are real, made by the use cases the
 * server's own flows call.
 */
export const OPERATOR_KEY = "op_" + "m".repeat(40);
export const ORIGIN = "http://localhost";
export const WEBHOOK_SECRETS = {
  codeHost: "code-host-webhook-secret-0123456789",
  radar: "whsec_" + btoa("radar-monitor-webhook-secret-0123456789"),
  identity: "whsec_" + btoa("identity-webhook-secret-0123456789ab"),
  support: "support-webhook-secret-0123456789",
  billing: "whsec_billing-webhook-secret-0123456789",
} as const;

export type Role = "owner" | "admin" | "member";
export type ScopeSet = "r" | "rw" | "rwt";
export const SCOPE_SETS: Record<ScopeSet, Scope[]> = {
  r: ["work:read"],
  rw: ["work:read", "work:write"],
  rwt: ["work:read", "work:write", "topics:write"],
};

/** A kind of caller. `exists: false`: it cannot be made (a service key authorizes no OAuth client: it is no person). */
export interface PrincipalKind {
  id: string;
  credential:
    | { type: "key"; who: Role | "service" }
    | { type: "token"; who: Role | "service"; scopes: ScopeSet }
    | { type: "session"; who: Role; crossSite: boolean }
    | { type: "operator" }
    | { type: "none" }
    | { type: "foreign" };
  exists: boolean;
}

const WHO = ["owner", "admin", "member", "service"] as const;
export const PRINCIPAL_KINDS: readonly PrincipalKind[] = [
  ...WHO.map((who): PrincipalKind => ({ id: `${who} key`, credential: { type: "key", who }, exists: true })),
  ...WHO.flatMap((who) =>
    (["r", "rw", "rwt"] as const).map((scopes): PrincipalKind => ({
      id: `${who} token ${SCOPE_SETS[scopes].join(" ")}`,
      credential: { type: "token", who, scopes },
      exists: who !== "service",
    }))
  ),
  { id: "owner session", credential: { type: "session", who: "owner", crossSite: false }, exists: true },
  { id: "member session", credential: { type: "session", who: "member", crossSite: false }, exists: true },
  { id: "owner session from another site", credential: { type: "session", who: "owner", crossSite: true }, exists: true },
  { id: "operator key", credential: { type: "operator" }, exists: true },
  { id: "no credential", credential: { type: "none" }, exists: true },
  { id: "another workspace's owner key", credential: { type: "foreign" }, exists: true },
];

/** What the authority table is asked about a kind: the principal it resolves to (scopes, role, via). */
export function callerOf(kind: PrincipalKind): Caller {
  const c = kind.credential;
  const person = (role: Role, via: Principal["via"], scopes: readonly Scope[]): Principal => ({
    workspaceId: "w",
    kind: "identity",
    identityId: `i-${role}`,
    memberId: `m-${role}`,
    role,
    via,
    credentialId: "c",
    scopes,
  });
  const service = (via: Principal["via"], scopes: readonly Scope[]): Principal => ({
    workspaceId: "w",
    kind: "service",
    identityId: null,
    memberId: null,
    role: null,
    via,
    credentialId: "c",
    scopes,
  });
  switch (c.type) {
    case "key":
      return c.who === "service" ? service("api_key", API_KEY_SCOPES) : person(c.who, "api_key", API_KEY_SCOPES);
    case "token":
      return c.who === "service" ? service("oauth", SCOPE_SETS[c.scopes]) : person(c.who, "oauth", SCOPE_SETS[c.scopes]);
    case "session":
      return person(c.who, "session", API_KEY_SCOPES);
    case "operator":
      return { kind: "platform_operator" };
    case "none":
      return null;
    case "foreign":
      return { ...person("owner", "api_key", API_KEY_SCOPES), workspaceId: "other" };
  }
}

/** A workspace and the credentials of its people, minted on first use. */
export interface Space {
  slug: string;
  id: string;
  keys: Record<Role | "service", string>;
  identityIds: Record<Role, string>;
  memberIds: Record<Role, string>;
  /** The headers a kind of caller sends (its credential, and a session's Origin). */
  headers(kind: PrincipalKind): Promise<Record<string, string>>;
}

export interface World {
  t: TestApp;
  /** The workspace every operation is asked about. */
  a: Space;
  /** Another workspace: its owner is the "another workspace's owner" kind. */
  b: Space;
  /** A new name each call: `prefix-<n>`. */
  unique(prefix: string): string;
  /** A new workspace with its people (operations that end it, or change its plan). */
  newSpace(): Promise<Space>;
  send(request: MatrixRequest, kind: PrincipalKind, space?: Space): Promise<Answer>;
}

export interface MatrixRequest {
  method: string;
  /** The full path, `/api/v1/…` or a root path, with its query string. */
  path: string;
  body?: unknown;
  /** A body sent as is (form-encoded, signed bytes), with its content type in `headers`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The JSON body, or the text of any other (null for a stream, which is not read). */
  body: any;
}

let counter = 0;

export async function makeWorld(): Promise<World> {
  const t = await makeTestApp(undefined, {
    platformAdminKey: OPERATOR_KEY,
    codeHostWebhookSecret: WEBHOOK_SECRETS.codeHost,
    radarWebhookSecret: WEBHOOK_SECRETS.radar,
    identityWebhookSecret: WEBHOOK_SECRETS.identity,
    supportWebhookSecret: WEBHOOK_SECRETS.support,
    billingWebhookSecret: WEBHOOK_SECRETS.billing,
    core: { prospects: createSampleDirectory(), paths: picomatchMatcher },
    // An identity provider is configured, so sessions decide on the consent page; it is never
    // reached but on a loopback port nothing listens on (sign-in answers 502).
    oidc: createOidcProvider({ issuer: "http://127.0.0.1:9", clientId: "unused", clientSecret: "unused" }),
  });
  const unique = (prefix: string) => `${prefix}-${++counter}`;

  async function newSpace(): Promise<Space> {
    const slug = unique("mx");
    const boot = await t.call("POST", "/workspaces", { body: { slug, owner_email: `${slug}-owner@example.com` } });
    if (boot.status !== 201) throw new Error(`bootstrap ${slug}: ${boot.status} ${JSON.stringify(boot.body)}`);
    const owner = boot.body.api_key.key as string;
    const keys = { owner } as Record<Role | "service", string>;
    const identityIds = { owner: boot.body.owner.id } as Record<Role, string>;
    const memberIds = { owner: boot.body.member.id } as Record<Role, string>;
    for (const role of ["admin", "member"] as const) {
      const m = await t.call("POST", `/workspaces/${slug}/members`, { key: owner, body: { email: `${role}-${slug}@example.com`, role } });
      const k = await t.call("POST", `/workspaces/${slug}/api-keys`, { key: owner, body: { member_id: m.body.id, name: role } });
      if (m.status !== 201 || k.status !== 201) throw new Error(`persona ${role}: ${m.status} ${k.status}`);
      keys[role] = k.body.key;
      identityIds[role] = m.body.identity_id;
      memberIds[role] = m.body.id;
    }
    keys.service = (await t.call("POST", `/workspaces/${slug}/api-keys`, { key: owner, body: { service: true, name: "ci" } })).body.key;
    const id = boot.body.workspace.id as string;
    const tokens = new Map<string, string>();
    const sessions = new Map<Role, string>();
    const space: Space = {
      slug,
      id,
      keys,
      identityIds,
      memberIds,
      async headers(kind): Promise<Record<string, string>> {
        const c = kind.credential;
        switch (c.type) {
          case "key":
            return { "x-api-key": keys[c.who] };
          case "token": {
            if (c.who === "service") throw new Error("a service key authorizes no OAuth client");
            const name = `${c.who}:${c.scopes}`;
            if (!tokens.has(name)) {
              const issued = await issueTokens(t.core, { identityId: identityIds[c.who], workspaceId: id }, SCOPE_SETS[c.scopes]);
              tokens.set(name, issued.access_token);
            }
            return { authorization: `Bearer ${tokens.get(name)}` };
          }
          case "session": {
            if (!sessions.has(c.who)) sessions.set(c.who, (await createSession(t.core as never, identityIds[c.who])).token);
            return { cookie: `wks_session=${sessions.get(c.who)}`, origin: c.crossSite ? "https://evil.example" : ORIGIN };
          }
          case "operator":
            return { "x-api-key": OPERATOR_KEY };
          case "none":
            return {};
          case "foreign":
            return { "x-api-key": world.b.keys.owner };
        }
      },
    };
    return space;
  }

  async function send(request: MatrixRequest, kind: PrincipalKind, space: Space = world.a): Promise<Answer> {
    const headers: Record<string, string> = { ...(await space.headers(kind)) };
    // The request's own headers may add a cookie (the consent page's) to the session's.
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      headers[name] = name === "cookie" && headers.cookie ? `${headers.cookie}; ${value}` : value;
    }
    let body = request.rawBody;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers["content-type"] ??= "application/json";
    }
    if (body !== undefined) headers["content-length"] = String(new TextEncoder().encode(body).length);
    const res = await t.app.handle(new Request(`http://localhost${request.path}`, { method: request.method, headers, body }));
    if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      await res.body?.cancel();
      return { status: res.status, headers: res.headers, body: null };
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch { /* not JSON: keep the text */ }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  const world: World = { t, a: undefined as never, b: undefined as never, unique, newSpace, send };
  world.a = await newSpace();
  world.b = await newSpace();
  return world;
}
