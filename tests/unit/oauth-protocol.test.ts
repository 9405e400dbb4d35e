import { describe, expect, test } from "bun:test";
import type { Authenticated, Principal } from "../../core/access/mod.ts";
import { API_KEY_SCOPES } from "../../core/access/mod.ts";
import { checkConsentDecider, readClientCredentials, readGrantRequest } from "../../core/identity/mod.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";

/** The OAuth protocol's pure rules in core/identity: client credentials, grant dispatch, the consent decider. */
const form = (entries: Record<string, string>) => new Map(Object.entries(entries));
const basic = (id: string, secret: string) => `Basic ${btoa(`${id}:${secret}`)}`;

describe("readClientCredentials()", () => {
  test("reads HTTP Basic with form-encoded parts (RFC 6749 §2.3.1)", () => {
    expect(readClientCredentials(basic("my%20app", "s+e%3Ac"), form({}))).toEqual({
      ok: true,
      value: { client_id: "my app", method: "basic", client_secret: "s e:c" },
    });
    expect(readClientCredentials(`bAsIc   ${btoa("c:s")}  `, form({ client_id: "c" }))).toEqual({
      ok: true,
      value: { client_id: "c", method: "basic", client_secret: "s" },
    });
  });

  test("reads the body's client_id and client_secret, or the id alone for a public client", () => {
    expect(readClientCredentials(null, form({ client_id: "c", client_secret: "s" }))).toEqual({
      ok: true,
      value: { client_id: "c", method: "post", client_secret: "s" },
    });
    expect(readClientCredentials(null, form({ client_id: "c" }))).toEqual({ ok: true, value: { client_id: "c", method: "none" } });
    // An empty secret is still a secret sent in the body: authenticateClient refuses it.
    expect(readClientCredentials(null, form({ client_id: "c", client_secret: "" }))).toEqual({
      ok: true,
      value: { client_id: "c", method: "post", client_secret: "" },
    });
    // Another scheme is not client authentication.
    expect(readClientCredentials("Bearer x", form({ client_id: "c" }))).toEqual({ ok: true, value: { client_id: "c", method: "none" } });
  });

  test("refuses two methods at once, or a client_id that differs from Basic's, as invalid_request", () => {
    const two = readClientCredentials(basic("c", "s"), form({ client_secret: "s" }));
    expect(two).toEqual({
      ok: false,
      error: { code: "invalid_request", description: "Invalid request: two client authentication methods" },
    });
    const other = readClientCredentials(basic("c", "s"), form({ client_id: "d" }));
    expect(other.ok || other.error.code).toBe("invalid_request");
  });

  test("refuses Basic that does not decode, and no client_id at all, as invalid_client", () => {
    for (const header of ["Basic !!!", `Basic ${btoa("no-colon")}`, `Basic ${btoa("%zz:s")}`, "Basic "]) {
      const r = readClientCredentials(header, form({}));
      expect(r).toEqual({
        ok: false,
        error: { code: "invalid_client", description: "Client authentication failed: malformed Basic credentials" },
      });
    }
    expect(readClientCredentials(null, form({}))).toEqual({
      ok: false,
      error: { code: "invalid_client", description: "Client authentication failed: no client_id" },
    });
  });
});

describe("readGrantRequest()", () => {
  const both = { grant_types: ["authorization_code" as const, "refresh_token" as const] };
  const codeOnly = { grant_types: ["authorization_code" as const] };

  test("dispatches authorization_code with its three required parameters", () => {
    const params = form({ grant_type: "authorization_code", code: "c", code_verifier: "v", redirect_uri: "https://a.example/cb" });
    expect(readGrantRequest(params, both)).toEqual({
      ok: true,
      value: { grant_type: "authorization_code", code: "c", code_verifier: "v", redirect_uri: "https://a.example/cb" },
    });
    for (const missing of ["code", "code_verifier", "redirect_uri"]) {
      const partial = new Map(params);
      partial.delete(missing);
      const r = readGrantRequest(partial, both);
      expect(r.ok || r.error).toEqual({
        code: "invalid_request",
        description: "Invalid request: code, code_verifier and redirect_uri are required",
      });
    }
  });

  test("dispatches refresh_token, scope optional", () => {
    expect(readGrantRequest(form({ grant_type: "refresh_token", refresh_token: "r" }), both)).toEqual({
      ok: true,
      value: { grant_type: "refresh_token", refresh_token: "r", scope: null },
    });
    expect(readGrantRequest(form({ grant_type: "refresh_token", refresh_token: "r", scope: "work:read" }), both)).toEqual({
      ok: true,
      value: { grant_type: "refresh_token", refresh_token: "r", scope: "work:read" },
    });
    const r = readGrantRequest(form({ grant_type: "refresh_token" }), both);
    expect(r.ok || r.error.description).toBe("Invalid request: refresh_token is required");
  });

  test("refuses a missing, unsupported or unregistered grant type, each with its RFC 6749 §5.2 code", () => {
    const code = (params: Map<string, string>, client = both) => {
      const r = readGrantRequest(params, client);
      return r.ok ? null : r.error;
    };
    expect(code(form({}))).toEqual({ code: "invalid_request", description: "Invalid request: grant_type is missing" });
    expect(code(form({ grant_type: "password" }))).toEqual({
      code: "unsupported_grant_type",
      description: "Unsupported grant_type password: expected one of authorization_code, refresh_token",
    });
    expect(code(form({ grant_type: "refresh_token", refresh_token: "r" }), codeOnly)).toEqual({
      code: "unauthorized_client",
      description: "The client did not register grant type refresh_token",
    });
  });
});

describe("checkConsentDecider()", () => {
  const workspace = { id: "w1", slug: "acme", name: "Acme" } as Workspace;
  const as = (more: Partial<Principal>): Authenticated => ({
    workspace,
    principal: {
      workspaceId: "w1",
      kind: "identity",
      identityId: "i1",
      memberId: "m1",
      role: "member",
      via: "api_key",
      credentialId: "k1",
      scopes: API_KEY_SCOPES,
      ...more,
    },
  });

  test("lets a person decide by API key or session, at the root or at their workspace's mount", () => {
    for (const via of ["api_key", "session"] as const) {
      const auth = as({ via });
      expect(checkConsentDecider(auth, null)).toEqual({ ok: true, value: auth });
      expect(checkConsentDecider(auth, "acme", "acme")).toEqual({ ok: true, value: auth });
    }
  });

  test("refuses an OAuth token and a faceless key (forbidden)", () => {
    const oauth = checkConsentDecider(as({ via: "oauth" }), null);
    expect(oauth).toEqual({
      ok: false,
      error: { code: "forbidden", description: "Cannot authorize a client: decide with a person's API key, or signed in" },
    });
    const faceless = checkConsentDecider(as({ kind: "service", identityId: null, memberId: null, role: null }), null);
    expect(faceless).toEqual({
      ok: false,
      error: { code: "forbidden", description: "Cannot authorize a client: a service key acts for no person" },
    });
  });

  test("hides another workspace's decider as not_found: the mount's, or the one named", () => {
    const notFound = { ok: false as const, error: { code: "not_found" as const, description: "Workspace not found" } };
    expect(checkConsentDecider(as({}), "other")).toEqual(notFound);
    expect(checkConsentDecider(as({}), null, "other")).toEqual(notFound);
    // Naming nothing names no workspace.
    expect(checkConsentDecider(as({}), null, "").ok).toBe(true);
  });
});
