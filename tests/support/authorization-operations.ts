import type { Authority } from "../../core/access/authority.ts";
import { s256Challenge } from "../../core/identity/pkce.ts";
import { unsubscribeToken } from "../../core/mail/unsubscribe-token.ts";
import { hubSignature, hubSignatureSha1 } from "../../core/webhooks/signature.ts";
import { standardWebhookSignature } from "../../core/webhooks/standard-webhooks.ts";
import { stripeSignatureHeader } from "../../core/webhooks/stripe-signature.ts";
import { issueTokens } from "./oauth-tokens.ts";
import { TEST_SECRET } from "./test-app.ts";
import { type MatrixRequest, OPERATOR_KEY, type PrincipalKind, type Space, WEBHOOK_SECRETS, type World } from "./authorization-world.ts";

/**
 * How the authorization matrix asks each operation (tests/api/authorization-matrix.test.ts): the
 * objects its path names, a body that is valid (so the answer is authorization's, not
 * validation's), fresh objects for a call that consumes them (a topic approved once cannot be
 * approved again), and the answers that are the operation's own when authorization lets the
 * caller through. Operations not named here take the shared objects and a body sampled from
 * their OpenAPI request schema.
 */
export interface OperationSpec {
  /** Path parameters for this call, over the shared ones (objects the call consumes). */
  params?: (f: Fixtures, kind: PrincipalKind) => Promise<Record<string, string>>;
  query?: (f: Fixtures) => string | Promise<string>;
  body?: (f: Fixtures, kind: PrincipalKind) => unknown;
  /** A form-encoded body instead of JSON. */
  form?: (f: Fixtures, kind: PrincipalKind) => Record<string, string> | Promise<Record<string, string>>;
  /** A body of another type, as text (an upload's bytes, when they are text). */
  raw?: () => { type: string; text: string };
  headers?: (f: Fixtures, kind: PrincipalKind) => Record<string, string> | Promise<Record<string, string>>;
  /** Each call in a new workspace, whose people are the callers (the call ends it or changes its plan). */
  freshSpace?: boolean;
  /** Statuses that are the operation's own answer to an allowed caller, besides 2xx and 3xx. */
  ownAnswers?: number[];
  /** For `signature`: a request signed as the sender would, which must pass. */
  signed?: (f: Fixtures) => Promise<MatrixRequest>;
  /** The same operation asked with another body that needs more (renaming a tag, a service key). */
  variants?: Array<{
    name: string;
    authority: Authority;
    body: (f: Fixtures, kind: PrincipalKind) => unknown;
    params?: (f: Fixtures, kind: PrincipalKind) => Promise<Record<string, string>>;
  }>;
}

const REDIRECT = "http://127.0.0.1:8123/cb";
const VERIFIER = "v".repeat(50);
const COMPANIES = { industries: ["software"], countries: ["DE"] };
const PEOPLE = { countries: ["NL"], seniorities: ["director"] };

/** The objects of one workspace, made by its owner over HTTP: shared ones once, fresh ones per call. */
export class Fixtures {
  readonly shared: Record<string, string> = {};
  constructor(readonly world: World, readonly space: Space) {}

  get slug() {
    return this.space.slug;
  }

  /** A call by the workspace's owner (or the operator) that must succeed. */
  async as(method: string, path: string, body?: unknown, key = this.space.keys.owner): Promise<any> {
    const res = await this.world.t.call(method, path, { key, body });
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  ws(path: string) {
    return `/workspaces/${this.slug}${path}`;
  }
  unique(prefix: string) {
    return this.world.unique(prefix);
  }

  async topic(status: "draft" | "proposed" | "reviewed" | "archived" = "draft"): Promise<string> {
    const t = await this.as("POST", this.ws("/topics"), { title: this.unique("Topic"), body: "Body words" });
    if (status === "proposed") await this.as("POST", this.ws(`/topics/${t.slug}/propose`), {});
    if (status === "reviewed") await this.as("POST", this.ws(`/topics/${t.slug}/approve`), {});
    if (status === "archived") await this.as("POST", this.ws(`/topics/${t.slug}/archive`), {});
    return t.slug;
  }
  async proposal(topic: string): Promise<string> {
    return (await this.as("POST", this.ws(`/topics/${topic}/proposals`), { summary: "Edit", patch: { body: this.unique("New body") } })).id;
  }
  async collection(): Promise<string> {
    return (await this.as("POST", this.ws("/collections"), { name: this.unique("Coll"), archetype: "pipeline" })).id;
  }
  async record(collection: string): Promise<string> {
    return (await this.as("POST", this.ws(`/collections/${collection}/records`), { fields: {} })).id;
  }
  /** A search opened (a draft run); `priced` and `started` take it further. */
  async run(stage: "draft" | "priced" | "completed", opts: { people?: boolean; monitor?: boolean } = {}) {
    const opened = await this.as("POST", this.ws("/radar/searches"), {
      criterion: {
        title: this.unique("Criterion"),
        kind: opts.people ? "person" : "company",
        filter: opts.people ? PEOPLE : COMPANIES,
      },
      max_results: 3,
      ...(opts.monitor ? { monitor: { interval: "weekly", budget_credits: 10 } } : {}),
    });
    const run = opened.run.id as string;
    if (stage !== "draft") await this.as("POST", this.ws(`/radar/runs/${run}/price`), {});
    if (stage === "completed") await this.as("POST", this.ws(`/radar/runs/${run}/start`), {});
    return { run, collection: opened.search.collection_id as string, criterion: opened.criterion.slug as string };
  }
  async offer(space = this.space): Promise<string> {
    const body = { workspace_id: space.id, plan: "team", price: { amount: 1000, currency: "eur", interval: "month" }, term_months: 12 };
    return (await this.as("POST", "/platform/billing/offers", body, OPERATOR_KEY)).id;
  }
  async client(): Promise<string> {
    const c = await this.world.t.call("POST", "/oauth/register", {
      body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Matrix agent" },
    });
    return c.body.client_id;
  }
  /** The id of a person's inbox entry (the topic shared with them). */
  async inboxEntry(memberId: string): Promise<string> {
    return (await this.as("POST", this.ws(`/topics/${this.shared.topic}/share-with`), { member_ids: [memberId] })).shared[0].id;
  }
  memberOf(kind: PrincipalKind): string | undefined {
    const c = kind.credential;
    if ((c.type === "key" || c.type === "token" || c.type === "session") && c.who !== "service") return this.space.memberIds[c.who];
    return undefined;
  }

  /** The objects every operation that does not consume them shares. */
  async makeShared(): Promise<void> {
    const s = this.shared;
    await this.as("POST", this.ws("/radar/credits/grant"), { amount: 1_000_000 }, OPERATOR_KEY);
    s.topic = await this.topic("reviewed");
    s.target = await this.topic();
    s.proposal = await this.proposal(s.topic);
    s.relation = (await this.as("POST", this.ws(`/topics/${s.topic}/relations`), { type: "relates_to", target: s.target })).id;
    s.share = (await this.as("POST", this.ws(`/topics/${s.topic}/share`), {})).token;
    s.tag = (await this.as("POST", this.ws("/tags"), { name: this.unique("tag") })).name;
    s.area = (await this.as("POST", this.ws("/areas"), { name: this.unique("Area") })).id;
    s.repo = (await this.as("POST", this.ws("/repos"), { provider: "github", full_name: `acme/${this.unique("repo")}` })).id;
    s.collection = await this.collection();
    s.record = await this.record(s.collection);
    s.entity = (await this.as("POST", this.ws("/entities"), { kind: "company", name: this.unique("Acme") })).entity.id;
    const people = await this.run("completed", { people: true, monitor: true });
    s.run = people.run;
    s.criterion = people.criterion;
    s.contactCollection = people.collection;
    const records = await this.as("GET", this.ws(`/collections/${people.collection}/records?limit=1`));
    s.contactRecord = records.records[0].id;
    s.offer = await this.offer();
    s.client = await this.client();
    s.blogPost = (await this.as("GET", "/blog/posts?limit=1")).posts[0].slug;
  }
}

/** A person's OAuth grant, made fresh (revoking it ends it). */
async function grantOf(f: Fixtures, who: "owner" | "admin" | "member"): Promise<string> {
  const issued = await issueTokens(f.world.t.core, { identityId: f.space.identityIds[who], workspaceId: f.space.id }, ["work:read"]);
  return issued.grant_id;
}

const authorizeFields = (clientId: string): Record<string, string> => ({
  client_id: clientId,
  redirect_uri: REDIRECT,
  response_type: "code",
  scope: "work:read",
  state: "st",
  code_challenge: s256Challenge(VERIFIER),
  code_challenge_method: "S256",
});

/**
 * The consent decision as JSON. A session decides with the consent page's CSRF token and its
 * cookie (ADR 044), so for a session the page is fetched first, signed in.
 */
async function consentRequest(f: Fixtures, kind: PrincipalKind, base: string): Promise<{ body: unknown; headers: Record<string, string> }> {
  const fields = authorizeFields(f.shared.client!);
  const c = kind.credential;
  if (c.type !== "session") return { body: { ...fields, decision: "approve" }, headers: {} };
  const own = await f.space.headers({ ...kind, credential: { ...c, crossSite: false } });
  const page = await f.world.t.app.handle(
    new Request(`http://localhost/api/v1${base}/oauth/authorize?${new URLSearchParams(fields)}`, { headers: { cookie: own.cookie! } }),
  );
  const html = await page.text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers.getSetCookie().find((x) => x.startsWith("oauth_csrf="))?.split(";")[0];
  if (!token || !cookie) throw new Error(`consent page (${page.status}) gave no CSRF token`);
  const workspace = base === "" ? { workspace: f.slug } : {};
  return { body: { ...fields, ...workspace, decision: "approve", csrf_token: token }, headers: { cookie } };
}

const signedJson = (path: string, raw: string, headers: Record<string, string>): MatrixRequest => ({
  method: "POST",
  path: `/api/v1${path}`,
  rawBody: raw,
  headers: { "content-type": "application/json", ...headers },
});
const bytes = (s: string) => new TextEncoder().encode(s);
const now = () => String(Math.floor(Date.now() / 1000));

async function standardSigned(path: string, secret: string, payload: unknown): Promise<MatrixRequest> {
  const raw = JSON.stringify(payload);
  const id = `msg_${crypto.randomUUID()}`;
  const ts = now();
  return signedJson(path, raw, {
    "webhook-id": id,
    "webhook-timestamp": ts,
    "webhook-signature": await standardWebhookSignature(secret, id, ts, bytes(raw)),
  });
}

async function unsubscribeLink(f: Fixtures): Promise<string> {
  return `?token=${await unsubscribeToken(TEST_SECRET, f.space.identityIds.member, "membership")}`;
}

const topicBase = "/api/v1/workspaces/{slug}/topics";
const wsBase = "/api/v1/workspaces/{slug}";

/** A zip with no entries: its end record alone. */
const EMPTY_ZIP = "PK\u0005\u0006" + "\u0000".repeat(18);

export const OPERATIONS: Record<string, OperationSpec> = {
  // ---- public and signed ----
  "POST /api/v1/auth/logout": { freshSpace: true },
  "GET /api/v1/auth/login": { ownAnswers: [502] },
  "GET /api/v1/auth/callback": { ownAnswers: [400] },
  "GET /api/v1/email/unsubscribe": {
    signed: async (f) => ({ method: "GET", path: `/api/v1/email/unsubscribe${await unsubscribeLink(f)}` }),
  },
  "POST /api/v1/email/unsubscribe": {
    signed: async (f) => ({ method: "POST", path: `/api/v1/email/unsubscribe${await unsubscribeLink(f)}` }),
  },
  "POST /api/v1/webhooks/code-host": {
    body: () => ({ zen: "Unsigned", hook_id: 1 }),
    headers: () => ({ "x-github-event": "ping", "x-github-delivery": crypto.randomUUID() }),
    signed: async () => {
      const raw = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
      return signedJson("/webhooks/code-host", raw, {
        "x-github-event": "ping",
        "x-github-delivery": crypto.randomUUID(),
        "x-hub-signature-256": await hubSignature(WEBHOOK_SECRETS.codeHost, bytes(raw)),
      });
    },
  },
  "POST /api/v1/webhooks/radar/monitor": {
    body: () => ({ type: "monitor.unknown", data: {} }),
    signed: () => standardSigned("/webhooks/radar/monitor", WEBHOOK_SECRETS.radar, { type: "monitor.unknown", data: {} }),
  },
  "POST /api/v1/webhooks/identity": {
    body: () => ({ type: "organization.created", data: {} }),
    signed: () => standardSigned("/webhooks/identity", WEBHOOK_SECRETS.identity, { type: "organization.created", data: {} }),
  },
  "POST /api/v1/webhooks/support": {
    body: () => ({ type: "notification_event", id: "notif_unsigned", topic: "ping", data: { item: { message: "hi" } } }),
    signed: async () => {
      const raw = JSON.stringify({
        type: "notification_event",
        id: `notif_${crypto.randomUUID()}`,
        topic: "ping",
        created_at: 1_780_000_000,
        data: { type: "notification_event_data", item: { type: "ping", message: "hi" } },
      });
      return signedJson("/webhooks/support", raw, { "x-hub-signature": await hubSignatureSha1(WEBHOOK_SECRETS.support, bytes(raw)) });
    },
  },
  "POST /api/v1/webhooks/billing": {
    body: () => ({ id: "evt_unsigned", object: "event", type: "ping.other", created: 1, data: { object: {} } }),
    signed: async () => {
      const raw = JSON.stringify({
        id: `evt_${crypto.randomUUID()}`,
        object: "event",
        type: "ping.other",
        created: 1,
        data: { object: {} },
      });
      return signedJson("/webhooks/billing", raw, {
        "billing-signature": await stripeSignatureHeader(WEBHOOK_SECRETS.billing, Math.floor(Date.now() / 1000), bytes(raw)),
      });
    },
  },

  // ---- OAuth ----
  "POST /api/v1/oauth/register": { body: () => ({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) },
  "POST /api/v1/workspaces/{slug}/oauth/register": { body: () => ({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) },
  "GET /api/v1/oauth/authorize": { query: (f) => `?${new URLSearchParams(authorizeFields(f.shared.client!))}` },
  "GET /api/v1/workspaces/{slug}/oauth/authorize": { query: (f) => `?${new URLSearchParams(authorizeFields(f.shared.client!))}` },
  "POST /api/v1/oauth/token": {
    form: (f) => ({
      grant_type: "authorization_code",
      code: "wkac_unknown",
      code_verifier: VERIFIER,
      redirect_uri: REDIRECT,
      client_id: f.shared.client!,
    }),
    ownAnswers: [400],
  },
  "POST /api/v1/workspaces/{slug}/oauth/token": {
    form: (f) => ({
      grant_type: "authorization_code",
      code: "wkac_unknown",
      code_verifier: VERIFIER,
      redirect_uri: REDIRECT,
      client_id: f.shared.client!,
    }),
    ownAnswers: [400],
  },
  "POST /api/v1/oauth/revoke": { form: (f) => ({ token: "wkat_unknown", client_id: f.shared.client! }) },
  "POST /api/v1/workspaces/{slug}/oauth/revoke": { form: (f) => ({ token: "wkat_unknown", client_id: f.shared.client! }) },
  "POST /api/v1/oauth/authorize": {},
  "POST /api/v1/workspaces/{slug}/oauth/authorize": {},
  "DELETE /api/v1/workspaces/{slug}/oauth/grants/{id}": { params: async (f) => ({ id: await grantOf(f, "owner") }) },

  // ---- MCP ----
  "POST /mcp": { body: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }) },
  "POST /api/v1/mcp": { body: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }) },

  // ---- workspaces, keys, members ----
  "POST /api/v1/workspaces": {
    body: (f, kind) => {
      const slug = f.unique("made");
      return kind.credential.type === "none" ? { slug, owner_email: `${slug}@example.com` } : { slug };
    },
  },
  "PATCH /api/v1/workspaces/{slug}": { body: () => ({ name: "Matrix" }) },
  "DELETE /api/v1/workspaces/{slug}": { freshSpace: true },
  "PATCH /api/v1/workspaces/{slug}/plan": { body: () => ({ plan: "free" }) },
  "POST /api/v1/workspaces/{slug}/api-keys": {
    body: () => ({ name: "mine" }),
    variants: [
      { name: "a service key", authority: "human_owner_admin", body: () => ({ service: true, name: "svc" }) },
    ],
  },
  "DELETE /api/v1/workspaces/{slug}/api-keys/{id}": {
    params: async (f) => ({ id: (await f.as("POST", f.ws("/api-keys"), { service: true, name: "doomed" })).id }),
  },
  "POST /api/v1/workspaces/{slug}/members": {
    body: (f) => ({ email: `${f.unique("new")}@example.com`, role: "member" }),
    variants: [{ name: "adding an owner", authority: "owner", body: (f) => ({ email: `${f.unique("own")}@example.com`, role: "owner" }) }],
  },
  "PATCH /api/v1/workspaces/{slug}/members/{memberId}": {
    params: async (f) => ({ memberId: (await f.as("POST", f.ws("/members"), { email: `${f.unique("m")}@example.com` })).id }),
    body: () => ({ role: "admin" }),
  },
  "DELETE /api/v1/workspaces/{slug}/members/{memberId}": {
    params: async (f) => ({ memberId: (await f.as("POST", f.ws("/members"), { email: `${f.unique("m")}@example.com` })).id }),
  },
  "POST /api/v1/workspaces/{slug}/areas": { body: (f) => ({ name: f.unique("Area") }) },
  "PATCH /api/v1/workspaces/{slug}/areas/{id}": { body: () => ({ description: "Described" }) },
  "DELETE /api/v1/workspaces/{slug}/areas/{id}": {
    params: async (f) => ({ id: (await f.as("POST", f.ws("/areas"), { name: f.unique("Area") })).id }),
  },
  "POST /api/v1/workspaces/{slug}/repos": { body: (f) => ({ provider: "github", full_name: `acme/${f.unique("repo")}` }) },
  "DELETE /api/v1/workspaces/{slug}/repos/{id}": {
    params: async (f) => ({ id: (await f.as("POST", f.ws("/repos"), { provider: "github", full_name: `acme/${f.unique("repo")}` })).id }),
  },

  // ---- topics ----
  [`POST ${topicBase}`]: { body: (f) => ({ title: f.unique("Topic") }) },
  [`POST ${topicBase}/import`]: { query: () => "?dry_run=true", raw: () => ({ type: "application/zip", text: EMPTY_ZIP }) },
  // Not an archive: the import's own 400 IMPORT_INVALID, answered once the caller passed (ADR 068).
  "POST /api/v1/workspaces/{slug}/import": {
    query: () => "?dry_run=true",
    raw: () => ({ type: "application/gzip", text: "x" }),
    ownAnswers: [400],
  },
  [`GET ${topicBase}/search`]: { query: () => "?q=body" },
  [`GET ${topicBase}/graph`]: { query: (f) => `?center=${f.shared.topic}` },
  [`PATCH ${topicBase}/{topic}`]: { body: () => ({ body: "Edited body" }) },
  [`DELETE ${topicBase}/{topic}`]: { params: async (f) => ({ topic: await f.topic() }) },
  [`POST ${topicBase}/{topic}/merge`]: { params: async (f) => ({ topic: await f.topic() }), body: (f) => ({ target: f.shared.target }) },
  [`POST ${topicBase}/{topic}/move`]: { params: async (f) => ({ topic: await f.topic() }), body: (f) => ({ slug: f.unique("moved") }) },
  [`POST ${topicBase}/{topic}/propose`]: { params: async (f) => ({ topic: await f.topic("draft") }) },
  [`POST ${topicBase}/{topic}/reject`]: { params: async (f) => ({ topic: await f.topic("proposed") }) },
  [`POST ${topicBase}/{topic}/approve`]: { params: async (f) => ({ topic: await f.topic("draft") }) },
  [`POST ${topicBase}/{topic}/archive`]: { params: async (f) => ({ topic: await f.topic("draft") }) },
  [`POST ${topicBase}/{topic}/unvouch`]: { params: async (f) => ({ topic: await f.topic("reviewed") }) },
  [`POST ${topicBase}/{topic}/vouch-ack`]: { params: async (f) => ({ topic: await f.topic("reviewed") }) },
  [`POST ${topicBase}/{topic}/restore`]: { params: async (f) => ({ topic: await f.topic("archived") }) },
  [`POST ${topicBase}/{topic}/proposals`]: { body: (f) => ({ summary: "Edit", patch: { body: f.unique("Proposed body") } }) },
  [`POST ${topicBase}/{topic}/proposals/{proposalId}/merge`]: {
    params: async (f) => {
      const topic = await f.topic();
      return { topic, proposalId: await f.proposal(topic) };
    },
  },
  [`POST ${topicBase}/{topic}/proposals/{proposalId}/reject`]: {
    params: async (f) => {
      const topic = await f.topic();
      return { topic, proposalId: await f.proposal(topic) };
    },
  },
  [`POST ${topicBase}/{topic}/relations`]: {
    params: async (f) => ({ topic: await f.topic() }),
    body: (f) => ({ type: "relates_to", target: f.shared.target }),
  },
  [`DELETE ${topicBase}/{topic}/relations/{relationId}`]: {
    params: async (f) => {
      const topic = await f.topic();
      const relation = await f.as("POST", f.ws(`/topics/${topic}/relations`), { type: "relates_to", target: f.shared.target });
      return { topic, relationId: relation.id };
    },
  },
  [`POST ${topicBase}/match-files`]: { body: () => ({ paths: ["src/app.ts"] }), headers: () => ({ "x-service-session": "matrix" }) },
  [`POST ${topicBase}/retrieve`]: { body: () => ({ question: "body words" }), headers: () => ({ "x-service-session": "matrix" }) },
  [`POST ${topicBase}/mark-drift`]: { body: () => ({ paths: ["src/app.ts"] }) },
  [`POST ${topicBase}/{topic}/share`]: { params: async (f) => ({ topic: await f.topic() }) },
  [`DELETE ${topicBase}/{topic}/share`]: {
    params: async (f) => {
      const topic = await f.topic();
      await f.as("POST", f.ws(`/topics/${topic}/share`), {});
      return { topic };
    },
  },
  [`POST ${topicBase}/{topic}/share-with`]: { body: (f) => ({ member_ids: [f.space.memberIds.member] }) },
  [`POST ${wsBase}/shared/{id}/read`]: {
    // The caller's own entry: another's reads as absent (404).
    params: async (f, kind) => ({ id: await f.inboxEntry(f.memberOf(kind) ?? f.space.memberIds.member) }),
  },
  [`POST ${wsBase}/tags`]: { body: (f) => ({ name: f.unique("tag") }) },
  [`PATCH ${wsBase}/tags/{name}`]: {
    body: () => ({ description: "Described" }),
    variants: [{
      name: "renaming",
      authority: "owner_admin",
      params: async (f) => ({ name: (await f.as("POST", f.ws("/tags"), { name: f.unique("tag") })).name }),
      body: (f) => ({ name: f.unique("renamed") }),
    }],
  },
  [`DELETE ${wsBase}/tags/{name}`]: {
    params: async (f) => ({ name: (await f.as("POST", f.ws("/tags"), { name: f.unique("tag") })).name }),
  },

  // ---- collections ----
  [`POST ${wsBase}/collections`]: { body: (f) => ({ name: f.unique("Coll"), archetype: "pipeline" }) },
  [`GET ${wsBase}/collections/search`]: { query: () => "?q=coll" },
  [`PATCH ${wsBase}/collections/{id}`]: { body: (f) => ({ name: f.unique("Renamed") }) },
  [`DELETE ${wsBase}/collections/{id}`]: { params: async (f) => ({ id: await f.collection() }), query: () => "?expected_version=1" },
  [`POST ${wsBase}/collections/{id}/archive`]: { params: async (f) => ({ id: await f.collection() }) },
  [`POST ${wsBase}/collections/{id}/restore`]: {
    params: async (f) => {
      const id = await f.collection();
      await f.as("POST", f.ws(`/collections/${id}/archive`), {});
      return { id };
    },
  },
  [`PUT ${wsBase}/collections/{id}/connector-mapping`]: { body: () => ({ mapping: null }) },
  [`PUT ${wsBase}/collections/{id}/presentation`]: { body: () => ({}) },
  [`POST ${wsBase}/collections/{id}/records`]: { body: () => ({ fields: {} }) },
  [`POST ${wsBase}/collections/{id}/records/aggregate`]: { body: () => ({ metrics: [{ fn: "count" }] }) },
  [`PATCH ${wsBase}/collections/{id}/records/{recordId}`]: { body: () => ({ fields: {} }) },
  [`DELETE ${wsBase}/collections/{id}/records/{recordId}`]: { params: async (f) => ({ recordId: await f.record(f.shared.collection!) }) },
  [`POST ${wsBase}/collections/{id}/records/{recordId}/outcomes`]: { body: () => ({ outcome: "won" }) },
  [`POST ${wsBase}/entities`]: { body: (f) => ({ kind: "company", name: f.unique("Entity") }) },

  // ---- radar ----
  [`POST ${wsBase}/radar/credits/grant`]: { body: () => ({ amount: 1 }) },
  [`PATCH ${wsBase}/radar/criteria/{criterionSlug}`]: { body: (f) => ({ title: f.unique("Retitled") }) },
  [`POST ${wsBase}/radar/searches`]: {
    body: (f) => ({ criterion: { title: f.unique("Criterion"), kind: "company", filter: COMPANIES }, max_results: 2 }),
  },
  [`POST ${wsBase}/radar/runs/{runId}/price`]: { params: async (f) => ({ runId: (await f.run("draft")).run }) },
  [`POST ${wsBase}/radar/runs/{runId}/start`]: { params: async (f) => ({ runId: (await f.run("priced")).run }) },
  [`POST ${wsBase}/radar/collections/{collectionId}/contact-paths/quote`]: {
    body: (f) => ({ record_ids: [f.shared.contactRecord], kinds: ["email"] }),
  },
  [`POST ${wsBase}/radar/collections/{collectionId}/contact-paths/unlock`]: {
    body: (f) => ({ record_ids: [f.shared.contactRecord], kinds: ["email"] }),
  },

  // ---- billing ----
  [`POST ${wsBase}/billing/checkout-session`]: {
    body: () => ({ success_url: "https://example.com/ok", cancel_url: "https://example.com/no", plan: "team", interval: "month" }),
    // No billing provider in the matrix's app: the operation's own answer to an allowed caller.
    ownAnswers: [503],
  },
  [`POST ${wsBase}/billing/portal-session`]: { body: () => ({}), ownAnswers: [503] },
  [`POST ${wsBase}/billing/offers/{id}/accept`]: {
    freshSpace: true,
    params: async (f) => ({ id: await f.offer() }),
  },
  "POST /api/v1/platform/billing/offers": {
    body: (f) => ({ workspace_id: f.space.id, plan: "team", price: { amount: 1000, currency: "eur", interval: "month" }, term_months: 12 }),
  },
  "POST /api/v1/platform/billing/offers/{id}/cancel": { params: async (f) => ({ id: await f.offer() }) },
  "POST /api/v1/platform/billing/offers/{id}/reissue": { params: async (f) => ({ id: await f.offer() }), body: () => ({}) },
  "POST /api/v1/platform/billing/workspaces/{workspaceId}/enterprise": {
    params: async (f) => ({ workspaceId: (await f.world.newSpace()).id }),
    body: () => ({ limits: { members: 50 }, price: { amount: 100_000, currency: "eur", interval: "year" }, term_months: 12 }),
  },
  "DELETE /api/v1/platform/billing/workspaces/{workspaceId}/enterprise": {
    params: async (f) => {
      const s = await f.world.newSpace();
      const body = { limits: { members: 50 }, price: { amount: 100_000, currency: "eur", interval: "year" }, term_months: 12 };
      await f.as("POST", `/platform/billing/workspaces/${s.id}/enterprise`, body, OPERATOR_KEY);
      return { workspaceId: s.id };
    },
  },
};

/** The consent decision needs the page's token for a session: its body and headers are made per call. */
export const CONSENT_PATHS: Record<string, string> = {
  "POST /api/v1/oauth/authorize": "",
  "POST /api/v1/workspaces/{slug}/oauth/authorize": "/workspaces/{slug}",
};
export { consentRequest };

/**
 * The shared object a path parameter names, by the segment before it (`/areas/{id}` is the area).
 * Unknown: the test fails, naming the parameter.
 */
export function sharedParam(f: Fixtures, path: string, name: string): string | undefined {
  const before = new RegExp(`/([^/{}]+)/\\{${name}\\}`).exec(path)?.[1];
  const s = f.shared;
  if (name === "slug") return before === "posts" ? s.blogPost : f.slug;
  const byPlace: Record<string, string | undefined> = {
    "s/token": s.share,
    "topics/topic": s.topic,
    "watchers/topic": s.topic,
    "proposals/proposalId": s.proposal,
    "relations/relationId": s.relation,
    "tags/name": s.tag,
    "areas/id": s.area,
    "repos/id": s.repo,
    "collections/id": s.collection,
    "records/recordId": s.record,
    "entities/id": s.entity,
    "criteria/criterionSlug": s.criterion,
    "runs/runId": s.run,
    "collections/collectionId": s.contactCollection,
    "offers/id": s.offer,
    "clients/clientId": s.client,
    "workspaces/workspaceId": f.space.id,
  };
  return byPlace[`${before}/${name}`];
}
