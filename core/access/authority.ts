import { actorKind, canWrite, isOwner, isOwnerOrAdmin } from "./policy.ts";
import type { Principal } from "./principal.ts";
import { hasScopesFor, type ScopedOperation } from "./scopes.ts";

/**
 * The authorities an operation can need, one table (docs/decisions/051-authority-table.md). Each
 * operation of the API declares exactly one (server/http/route-authorities.ts), and the
 * authorization matrix test calls every operation with every kind of caller and checks the answer
 * against `decideAuthority` below. The policies of the modules (policy.ts files) enforce these rules where
 * the objects are; this table says, in the same vocabulary, who passes each one and what everyone
 * else is told, so that the two can be held against each other.
 */
export const AUTHORITIES = [
  "public",
  "signature",
  "oauth_protocol",
  "any_credential",
  "bootstrap",
  "member_read",
  "person_read",
  "owner_admin_read",
  "write",
  "relate",
  "person_write",
  "human_write",
  "human_owner_admin",
  "own_or_owner_admin",
  "owner_admin_or_author",
  "owner_admin",
  "owner",
  "consent",
  "own_origin",
  "agent",
  "platform_operator",
] as const;
export type Authority = (typeof AUTHORITIES)[number];

/** The platform operator (PLATFORM_ADMIN_KEY): no member of any workspace (credits/policy.ts has the same shape). */
export interface OperatorCaller {
  kind: "platform_operator";
}

/** Who calls: a principal of some workspace (key, OAuth token, session), the platform operator, or nobody. */
export type Caller = Principal | OperatorCaller | null;

/**
 * What an authority answers a caller. Refusals carry the error code the API answers with:
 * `UNAUTHENTICATED` (401: no credential this operation reads), `FORBIDDEN` for the role (403, no
 * scope would help), `FORBIDDEN` for a scope (403 with `required_scope`: a client can step up),
 * `NOT_FOUND` (an object that is someone else's reads as absent), `INVALID_SIGNATURE` (401: only
 * the request's own signature passes), `origin` (403: only a request from this service's own pages,
 * its `Origin`, passes; the credential is not what decides).
 */
export type Decision =
  | { ok: true }
  | { ok: false; refusal: "unauthenticated" }
  | { ok: false; refusal: "role" }
  | { ok: false; refusal: "scope"; operation: ScopedOperation }
  | { ok: false; refusal: "absent" }
  | { ok: false; refusal: "signature" }
  | { ok: false; refusal: "origin" };

export interface AuthorityRule {
  /** Who passes, in words (the README's table). */
  passes: string;
  /** What the others are told, in words. */
  refused: string;
  /** Whether a `/workspaces/{slug}` path checks the credential's workspace first (another workspace's: 404). */
  tenancy: boolean;
  /** Whether the dashboard session is a credential here (elsewhere a session alone is no credential). */
  session: boolean;
  /** Whether a browser's request from another site (its `Origin`) is refused whatever it carries: MCP's DNS-rebinding rule. */
  foreignOriginRefused?: true;
  /**
   * What an OAuth token needs to pass (its scopes: `scopesFor`), as the OpenAPI document's `oauth2`
   * requirement says; null where no token passes or none is read.
   */
  oauth: ScopedOperation | null;
  decide(caller: Caller): Decision;
}

const OK: Decision = { ok: true };
const UNAUTHENTICATED: Decision = { ok: false, refusal: "unauthenticated" };
const ROLE: Decision = { ok: false, refusal: "role" };
const scope = (operation: ScopedOperation): Decision => ({ ok: false, refusal: "scope", operation });

const isPrincipal = (c: Caller): c is Principal => c !== null && c.kind !== "platform_operator";
const isPerson = (p: Principal) => p.kind === "identity" && p.identityId !== null;

/** A workspace credential (key, token, session): the rest is up to `then`; the operator and nobody are 401. */
const principal = (then: (p: Principal) => Decision) => (c: Caller): Decision => isPrincipal(c) ? then(c) : UNAUTHENTICATED;
const needs = (p: Principal, operation: ScopedOperation): Decision => hasScopesFor(p, operation) ? OK : scope(operation);
/** The role first (no scope would help), then the write scope (step-up would), as `assertOwnerOrAdmin`. */
const roleThenWrite = (has: boolean, p: Principal): Decision => !has ? ROLE : canWrite(p) ? OK : scope("write");

export const AUTHORITY: Record<Authority, AuthorityRule> = {
  public: {
    passes: "anyone; credentials are not read",
    refused: "nobody",
    tenancy: false,
    session: false,
    oauth: null,
    decide: () => OK,
  },
  signature: {
    passes:
      "a request signed with the receiver's secret (inbound webhooks) or carrying a signed token (unsubscribe links); credentials are not read",
    refused: "anything unsigned or badly signed: 401 `INVALID_SIGNATURE` (a link: 400 page)",
    tenancy: false,
    session: false,
    oauth: null,
    decide: () => ({ ok: false, refusal: "signature" }),
  },
  oauth_protocol: {
    passes:
      "anyone: the OAuth client authenticates as the protocol says (PKCE, the code, the token in the body); header credentials are not read",
    refused: "the protocol's own errors (400 `invalid_grant`, …)",
    tenancy: false,
    session: false,
    oauth: null,
    decide: () => OK,
  },
  any_credential: {
    passes: "any credential of any workspace: API key, OAuth token (`work:read`), session",
    refused: "no credential or the operator key: 401",
    tenancy: false,
    session: true,
    oauth: "read",
    decide: principal(() => OK),
  },
  bootstrap: {
    passes: "anyone without a credential (a new owner); with one, a person who may write (API key, session, OAuth token with `work:write`)",
    refused: "a service key 403; a read-only token 403 `insufficient_scope`; an invalid credential (the operator key) 401",
    tenancy: false,
    session: true,
    oauth: "write",
    decide: (c) => c === null ? OK : !isPrincipal(c) ? UNAUTHENTICATED : !isPerson(c) ? ROLE : needs(c, "write"),
  },
  member_read: {
    passes: "every credential of the workspace: owner, admin, member, service key, session, OAuth token (`work:read`)",
    refused: "no credential 401; another workspace's credential 404",
    tenancy: true,
    session: true,
    oauth: "read",
    decide: principal(() => OK),
  },
  person_read: {
    passes: "a person of the workspace (key, session, OAuth token): it reads what is theirs",
    refused: "a service key (it acts for no member) 403",
    tenancy: true,
    session: true,
    oauth: "read",
    decide: principal((p) => isPerson(p) ? OK : ROLE),
  },
  owner_admin_read: {
    passes: "an owner or admin (key, session, OAuth token with `work:read`)",
    refused: "members and service keys 403",
    tenancy: true,
    session: true,
    oauth: "read",
    decide: principal((p) => isOwnerOrAdmin(p) ? OK : ROLE),
  },
  write: {
    passes: "every credential of the workspace that may write: keys and sessions, OAuth tokens with `work:write`",
    refused: "an OAuth token without `work:write`: 403 `insufficient_scope`",
    tenancy: true,
    session: true,
    oauth: "write",
    decide: principal((p) => needs(p, "write")),
  },
  relate: {
    passes: "keys and sessions; OAuth tokens with `topics:write` (not `work:write`)",
    refused: "an OAuth token without `topics:write`: 403 `insufficient_scope`",
    tenancy: true,
    session: true,
    oauth: "relate",
    decide: principal((p) => needs(p, "relate")),
  },
  person_write: {
    passes: "a person who may write: personal keys, sessions, OAuth tokens with `work:write`",
    refused: "a service key 403; a token without `work:write` 403 `insufficient_scope`",
    tenancy: true,
    session: true,
    oauth: "write",
    decide: principal((p) => isPerson(p) ? needs(p, "write") : ROLE),
  },
  human_write: {
    passes: "a person acting themself: personal keys and sessions (never an agent: no service key, no OAuth client)",
    refused: "service keys and OAuth tokens 403",
    tenancy: true,
    session: true,
    oauth: null,
    decide: principal((p) => actorKind(p) === "human" ? needs(p, "write") : ROLE),
  },
  human_owner_admin: {
    passes: "an owner or admin acting themself: their key or session (never an agent: no service key, no OAuth client)",
    refused: "members, service keys and OAuth tokens 403",
    tenancy: true,
    session: true,
    oauth: null,
    decide: principal((p) => actorKind(p) === "human" && isOwnerOrAdmin(p) ? needs(p, "write") : ROLE),
  },
  own_or_owner_admin: {
    passes:
      "the person the object belongs to (their key, their grant), and owners and admins (any of the workspace's); with `work:write` over OAuth",
    refused: "a service key 403; without `work:write` 403 `insufficient_scope`; a member, someone else's object: 404 (it reads as absent)",
    tenancy: true,
    session: true,
    oauth: "write",
    // The matrix asks for an object of someone else: a member is told it is absent.
    decide: principal((p) =>
      !isPerson(p) ? ROLE : !canWrite(p) ? scope("write") : isOwnerOrAdmin(p) ? OK : { ok: false, refusal: "absent" }
    ),
  },
  owner_admin_or_author: {
    passes:
      "an owner or admin, or the person whose work it is (the author of a draft or proposal, the collection's owner), who may write: keys, sessions, OAuth tokens with `work:write`",
    refused: "anyone else 403 (a member, someone else's object; a service key); a token without `work:write` 403 `insufficient_scope`",
    tenancy: true,
    session: true,
    oauth: "write",
    // The matrix asks about someone else's object: then it is the owner/admin rule.
    decide: principal((p) => roleThenWrite(isOwnerOrAdmin(p), p)),
  },
  owner_admin: {
    passes: "an owner or admin who may write: keys, sessions, OAuth tokens with `work:write`",
    refused: "members and service keys 403; an owner's or admin's token without `work:write` 403 `insufficient_scope`",
    tenancy: true,
    session: true,
    oauth: "write",
    decide: principal((p) => roleThenWrite(isOwnerOrAdmin(p), p)),
  },
  owner: {
    passes: "an owner who may write: keys, sessions, OAuth tokens with `work:write`",
    refused: "admins, members and service keys 403; an owner's token without `work:write` 403 `insufficient_scope`",
    tenancy: true,
    session: true,
    oauth: "write",
    decide: principal((p) => roleThenWrite(isOwner(p), p)),
  },
  consent: {
    passes: "a person deciding for themself: their API key, or the session with the consent page's CSRF token",
    refused:
      "OAuth tokens and service keys 403; a session without the page's token 403; nobody 401; at a workspace's mount, another workspace's 404",
    tenancy: true,
    session: true,
    oauth: null,
    decide: principal((p) => isPerson(p) && p.via !== "oauth" ? OK : ROLE),
  },
  own_origin: {
    passes: "a request from this service's own pages (its `Origin`), with or without a session: signing out",
    refused: "any other request 403: another site cannot sign you out",
    tenancy: false,
    session: true,
    oauth: null,
    decide: () => ({ ok: false, refusal: "origin" }),
  },
  agent: {
    passes: "a header credential of any workspace (API key, OAuth token), in its own workspace; each tool then needs its scope",
    refused:
      "no credential, a session alone or the operator key 401; a page of another site (its `Origin`) 403; a write tool without `work:write` 403 `insufficient_scope`",
    tenancy: false,
    session: false,
    oauth: "read",
    foreignOriginRefused: true,
    decide: principal(() => OK),
  },
  platform_operator: {
    passes: "the platform operator key (PLATFORM_ADMIN_KEY) alone",
    refused: "no credential or a session 401; every workspace credential 403 (on a workspace's path, another workspace's 404 first)",
    tenancy: true,
    session: false,
    oauth: null,
    decide: (c) => c === null ? UNAUTHENTICATED : !isPrincipal(c) ? OK : ROLE,
  },
};

/**
 * What `authority` answers `caller`. Where the session is no credential, a session's person is
 * decided as nobody. (Tenancy and the session's Origin rule are the server's, checked before.)
 */
export function decideAuthority(authority: Authority, caller: Caller): Decision {
  const rule = AUTHORITY[authority];
  if (isPrincipal(caller) && caller.via === "session" && !rule.session) return rule.decide(null);
  return rule.decide(caller);
}
