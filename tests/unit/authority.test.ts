import { describe, expect, test } from "bun:test";
import { AUTHORITIES, AUTHORITY, type Authority, type Caller, decideAuthority } from "../../core/access/authority.ts";
import { assertCanWrite, assertOwner, assertOwnerOrAdmin } from "../../core/access/policy.ts";
import type { Principal } from "../../core/access/principal.ts";
import { API_KEY_SCOPES, type Scope, scopesFor } from "../../core/access/scopes.ts";
import { assertCanReadOffers } from "../../core/offers/policy.ts";
import { assertCanPurgeCollection } from "../../core/collections/policy.ts";
import { assertCanGrantCredits, PLATFORM_OPERATOR } from "../../core/credits/policy.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import { assertCanMarkInboxRead, assertCanReadInbox } from "../../core/sharing/policy.ts";
import { assertCanReadSupportLog } from "../../core/support-desk/policy.ts";
import { assertCanDeleteRelation, assertCanDeleteTopic, assertCanRelateTopics } from "../../core/topics/policy.ts";

/** The authority table (core/access/authority.ts) as a pure function, and the policies that enforce it agreeing with it. */
const person = (
  role: "owner" | "admin" | "member",
  via: Principal["via"] = "api_key",
  scopes: readonly Scope[] = API_KEY_SCOPES,
): Principal => ({
  workspaceId: "w",
  kind: "identity",
  identityId: `i-${role}`,
  memberId: `m-${role}`,
  role,
  via,
  credentialId: "c",
  scopes,
});
const service: Principal = {
  workspaceId: "w",
  kind: "service",
  identityId: null,
  memberId: null,
  role: null,
  via: "api_key",
  credentialId: "c",
  scopes: API_KEY_SCOPES,
};
const token = (role: "owner" | "admin" | "member", scopes: Scope[]) => person(role, "oauth", scopes);
const R: Scope[] = ["work:read"];
const RW: Scope[] = ["work:read", "work:write"];
const RT: Scope[] = ["work:read", "topics:write"];

/** Every principal shape the service resolves, plus the operator and nobody. */
const CALLERS: Array<[string, Caller]> = [
  ["nobody", null],
  ["operator", PLATFORM_OPERATOR],
  ["service key", service],
  ...(["owner", "admin", "member"] as const).flatMap((role): Array<[string, Caller]> => [
    [`${role} key`, person(role)],
    [`${role} session`, person(role, "session")],
    [`${role} token r`, token(role, R)],
    [`${role} token rw`, token(role, RW)],
    [`${role} token rt`, token(role, RT)],
  ]),
];
const refusal = (a: Authority, c: Caller) => {
  const d = decideAuthority(a, c);
  return d.ok ? "ok" : d.refusal;
};

describe("decideAuthority()", () => {
  test("decideAuthority() on owner_admin: the role first, then the write scope (an owner's read-only token: scope; a member's: role)", () => {
    expect(refusal("owner_admin", token("owner", R))).toBe("scope");
    expect(refusal("owner_admin", token("admin", RT))).toBe("scope");
    expect(refusal("owner_admin", token("member", R))).toBe("role");
    expect(refusal("owner_admin", token("member", RW))).toBe("role");
    expect(refusal("owner_admin", service)).toBe("role");
    expect(refusal("owner_admin", token("admin", RW))).toBe("ok");
    expect(refusal("owner_admin", person("owner", "session"))).toBe("ok");
    expect(refusal("owner_admin", null)).toBe("unauthenticated");
    expect(refusal("owner_admin", PLATFORM_OPERATOR)).toBe("unauthenticated");
    expect(decideAuthority("owner_admin", token("owner", R))).toEqual({ ok: false, refusal: "scope", operation: "write" });
  });

  test("decideAuthority() on owner: admins are refused for the role", () => {
    expect(refusal("owner", person("admin"))).toBe("role");
    expect(refusal("owner", token("admin", R))).toBe("role");
    expect(refusal("owner", token("owner", R))).toBe("scope");
    expect(refusal("owner", token("owner", RW))).toBe("ok");
  });

  test("decideAuthority() on the scopes: write needs work:write, relate topics:write (not work:write)", () => {
    expect(refusal("write", token("member", R))).toBe("scope");
    expect(refusal("write", service)).toBe("ok");
    expect(refusal("relate", token("member", RW))).toBe("scope");
    expect(decideAuthority("relate", token("member", RW))).toEqual({ ok: false, refusal: "scope", operation: "relate" });
    expect(refusal("relate", token("member", RT))).toBe("ok");
  });

  test("decideAuthority() keeps the platform operator's routes to the operator key, and a session off them (as nobody)", () => {
    for (const [name, c] of CALLERS) {
      const expected = name === "operator" ? "ok" : c === null || (c as Principal).via === "session" ? "unauthenticated" : "role";
      expect({ name, r: refusal("platform_operator", c) }).toEqual({ name, r: expected });
    }
    expect(refusal("agent", person("owner", "session"))).toBe("unauthenticated");
    expect(refusal("agent", token("member", R))).toBe("ok");
  });

  test("decideAuthority() on people's own things: a service key is refused for the role; a member is told another's object is absent", () => {
    expect(refusal("person_read", service)).toBe("role");
    expect(refusal("person_read", token("member", R))).toBe("ok");
    expect(refusal("person_write", token("member", R))).toBe("scope");
    expect(refusal("own_or_owner_admin", person("member"))).toBe("absent");
    expect(refusal("own_or_owner_admin", token("member", R))).toBe("scope");
    expect(refusal("own_or_owner_admin", person("admin"))).toBe("ok");
    expect(refusal("human_write", token("owner", RW))).toBe("role");
    expect(refusal("human_write", person("member", "session"))).toBe("ok");
    expect(refusal("consent", token("owner", RW))).toBe("role");
    expect(refusal("consent", person("member"))).toBe("ok");
  });

  test("decideAuthority() on the bootstrap: nobody passes (a new owner), a person who may write too, a service key not", () => {
    expect(refusal("bootstrap", null)).toBe("ok");
    expect(refusal("bootstrap", token("member", RW))).toBe("ok");
    expect(refusal("bootstrap", token("member", R))).toBe("scope");
    expect(refusal("bootstrap", service)).toBe("role");
    expect(refusal("bootstrap", PLATFORM_OPERATOR)).toBe("unauthenticated");
  });

  test("decideAuthority() on what credentials do not decide: signatures and the Origin; public and the OAuth protocol let anyone through", () => {
    for (const [, c] of CALLERS) {
      expect(refusal("signature", c)).toBe("signature");
      expect(refusal("own_origin", c)).toBe("origin");
      expect(refusal("public", c)).toBe("ok");
      expect(refusal("oauth_protocol", c)).toBe("ok");
    }
  });

  test("AUTHORITY[a].oauth is what a token needs: with those scopes an owner's token passes, without one of them it does not", () => {
    const readByCredential = AUTHORITIES.filter((a) => !["public", "signature", "oauth_protocol", "own_origin"].includes(a));
    for (const a of readByCredential) {
      const needed = AUTHORITY[a].oauth;
      if (needed === null) {
        expect({ a, r: refusal(a, token("owner", ["work:read", "work:write", "topics:write"])) }).not.toEqual({ a, r: "ok" });
        continue;
      }
      expect({ a, r: refusal(a, token("owner", scopesFor(needed))) }).toEqual({ a, r: "ok" });
      for (const dropped of scopesFor(needed).filter((s) => s !== "work:read")) {
        const fewer = scopesFor(needed).filter((s) => s !== dropped);
        expect({ a, r: refusal(a, token("owner", fewer)) }).toEqual({ a, r: "scope" });
      }
    }
  });
});

/** What a policy assertion answers a caller, in the table's words. */
function outcome(assert: () => void): string {
  try {
    assert();
    return "ok";
  } catch (e) {
    if (!isAppError(e)) throw e;
    if (e.code === "FORBIDDEN") return e.meta?.required_scope ? "scope" : "role";
    return e.code;
  }
}

describe("the policies agree with the table", () => {
  const principals = CALLERS.filter((c): c is [string, Principal] => c[1] !== null && c[1].kind !== "platform_operator");
  const pairs: Array<[Authority, (p: Principal) => void]> = [
    ["owner_admin", (p) => assertOwnerOrAdmin(p, "act")],
    ["owner", (p) => assertOwner(p, "act")],
    ["write", (p) => assertCanWrite(p, "act")],
    ["relate", (p) => assertCanRelateTopics(p)],
    ["human_write", (p) => assertCanDeleteRelation(p)],
    ["owner_admin_read", (p) => assertCanReadSupportLog(p)],
    ["owner_admin_read", (p) => assertCanReadOffers(p)],
    ["person_read", (p) => assertCanReadInbox(p)],
    ["person_write", (p) => assertCanMarkInboxRead(p)],
    ["owner_admin_or_author", (p) => assertCanDeleteTopic(p, { status: "draft", author_id: "someone-else" })],
    ["owner_admin_or_author", (p) => assertCanPurgeCollection(p, { owner_identity_id: "someone-else", created_by: "someone-else" })],
  ];
  for (const [authority, assert] of pairs) {
    test(`${authority}: the policy refuses whom decideAuthority() refuses, for the same reason`, () => {
      for (const [name, p] of principals) {
        expect({ name, outcome: outcome(() => assert(p)) }).toEqual({ name, outcome: refusal(authority, p) });
      }
    });
  }

  test("owner_admin_or_author: the author's own draft and the collection's owner pass, still needing work:write", () => {
    const own = { status: "draft" as const, author_id: "i-member" };
    expect(outcome(() => assertCanDeleteTopic(token("member", RW), own))).toBe("ok");
    expect(outcome(() => assertCanDeleteTopic(token("member", R), own))).toBe("scope");
    expect(outcome(() => assertCanDeleteTopic(person("member"), { status: "reviewed", author_id: "i-member" }))).toBe("role");
    expect(outcome(() => assertCanPurgeCollection(person("member", "session"), { owner_identity_id: "i-member", created_by: null }))).toBe(
      "ok",
    );
    expect(outcome(() => assertCanPurgeCollection(token("member", R), { owner_identity_id: null, created_by: "i-member" }))).toBe("scope");
  });

  test("platform_operator: the credit grant's policy lets the operator alone through", () => {
    expect(outcome(() => assertCanGrantCredits(PLATFORM_OPERATOR))).toBe("ok");
    for (const [name, p] of principals) expect({ name, o: outcome(() => assertCanGrantCredits(p)) }).toEqual({ name, o: "role" });
  });
});
