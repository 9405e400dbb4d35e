import { describe, expect, test } from "bun:test";
import {
  checkRedirectUri,
  findRedirectUri,
  formatScope,
  hashSecret,
  isAccessTokenFormat,
  isRefreshTokenFormat,
  isSessionTokenFormat,
  newAccessToken,
  newRefreshToken,
  newSessionToken,
  parseScope,
  readClientMetadata,
  redirectUriMatches,
  refreshTokenExpiry,
  s256Challenge,
  secondsLeft,
  sessionExtension,
  verifyS256,
} from "../../core/identity/mod.ts";
import { canListAllGrants, canListGrants, canRevokeGrant } from "../../core/identity/policy.ts";
import type { Principal } from "../../core/access/principal.ts";

const DAY = 86_400_000;

describe("identity rules", () => {
  test("checkRedirectUri() accepts https and http on loopback hosts only, never a fragment", () => {
    for (
      const ok of [
        "https://app.example.com/cb",
        "http://127.0.0.1/cb",
        "http://127.0.0.1:8080/cb",
        "http://[::1]:3000/",
        "http://localhost:5173/x?y=1",
      ]
    ) {
      expect(checkRedirectUri(ok)).toEqual({ ok: true });
    }
    for (
      const bad of [
        "http://app.example.com/cb",
        "https://app.example.com/cb#frag",
        "ftp://x/",
        "/relative",
        "",
        "https://u:p@app.example.com/",
        "javascript:alert(1)",
      ]
    ) {
      expect(checkRedirectUri(bad).ok).toBe(false);
    }
  });

  test("redirectUriMatches() is exact, but for the port of a loopback IP literal (RFC 8252 §7.3)", () => {
    expect(redirectUriMatches("https://app.example.com/cb", "https://app.example.com/cb")).toBe(true);
    expect(redirectUriMatches("https://app.example.com/cb", "https://app.example.com/cb/")).toBe(false);
    expect(redirectUriMatches("https://app.example.com/cb", "https://app.example.com:8443/cb")).toBe(false);
    expect(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:53124/cb")).toBe(true);
    expect(redirectUriMatches("http://127.0.0.1:1/cb", "http://127.0.0.1:2/cb")).toBe(true);
    expect(redirectUriMatches("http://[::1]/cb", "http://[::1]:4000/cb")).toBe(true);
    expect(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:4000/other")).toBe(false);
    expect(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:4000/cb#x")).toBe(false);
    expect(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:99999/cb")).toBe(false);
    expect(redirectUriMatches("http://127.0.0.1/cb", "http://[::1]:4000/cb")).toBe(false);
    expect(redirectUriMatches("http://localhost/cb", "http://localhost:4000/cb")).toBe(false);
    expect(findRedirectUri(["https://a.example/cb", "http://127.0.0.1/cb"], "http://127.0.0.1:9/cb")).toBe("http://127.0.0.1/cb");
    expect(findRedirectUri(["https://a.example/cb"], "https://b.example/cb")).toBeNull();
  });

  test("verifyS256() accepts the verifier of a challenge (RFC 7636 appendix B) and nothing else", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    expect(s256Challenge(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    expect(verifyS256(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(true);
    expect(verifyS256(verifier.replace("d", "e"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(false);
    expect(verifyS256("short", s256Challenge("short"))).toBe(false);
  });

  test("parseScope() always grants work:read, falls back to the client's default, and refuses unknown scopes", () => {
    expect(parseScope(undefined)).toEqual({ ok: true, scopes: ["work:read"] });
    expect(parseScope("topics:write work:write")).toEqual({ ok: true, scopes: ["work:read", "work:write", "topics:write"] });
    expect(parseScope("", "work:write")).toEqual({ ok: true, scopes: ["work:read", "work:write"] });
    expect(parseScope("work:read  work:read")).toEqual({ ok: true, scopes: ["work:read"] });
    expect(parseScope("work:read admin")).toEqual({ ok: false, unknown: ["admin"] });
    expect(formatScope(["topics:write", "work:read"])).toBe("work:read topics:write");
  });

  test("refreshTokenExpiry() is 30 days from now, never past 90 days from the grant's creation", () => {
    const created = "2026-01-01T00:00:00.000Z";
    const at = (d: number) => new Date(Date.parse(created) + d * DAY);
    expect(refreshTokenExpiry(at(0), created)).toBe(at(30).toISOString());
    expect(refreshTokenExpiry(at(70), created)).toBe(at(90).toISOString());
    expect(secondsLeft(at(1).toISOString(), at(0))).toBe(86_400);
    expect(secondsLeft(at(0).toISOString(), at(1))).toBe(0);
  });

  test("sessionExtension() extends to 30 days only when under 15 remain", () => {
    const now = new Date("2026-01-01T00:00:00.000Z");
    expect(sessionExtension(new Date(now.getTime() + 16 * DAY).toISOString(), now)).toBeNull();
    expect(sessionExtension(new Date(now.getTime() + 14 * DAY).toISOString(), now)).toBe(new Date(now.getTime() + 30 * DAY).toISOString());
  });

  test("token formats: prefixed, 256 random bits in lowercase base32; sessions 160 bits; hashes are SHA-256 hex", () => {
    const access = newAccessToken();
    expect(access).toMatch(/^wkat_[a-z2-7]{52}$/);
    expect(isAccessTokenFormat(access)).toBe(true);
    expect(isRefreshTokenFormat(access)).toBe(false);
    expect(isRefreshTokenFormat(newRefreshToken())).toBe(true);
    expect(newAccessToken()).not.toBe(access);
    expect(isSessionTokenFormat(newSessionToken())).toBe(true);
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  test("readClientMetadata() applies RFC 7591 defaults, ignores unknown fields, and names the bad field", () => {
    const read = readClientMetadata({ redirect_uris: ["https://a.example/cb"], software_id: "x" });
    expect(read).toEqual({
      ok: true,
      value: {
        redirect_uris: ["https://a.example/cb"],
        client_name: null,
        client_uri: null,
        logo_uri: null,
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        scope: null,
      },
    });
    expect(readClientMetadata({})).toMatchObject({ ok: false, error: { code: "invalid_redirect_uri" } });
    expect(readClientMetadata({ redirect_uris: ["http://evil.example/cb"] })).toMatchObject({
      ok: false,
      error: { code: "invalid_redirect_uri" },
    });
    expect(readClientMetadata({ redirect_uris: ["https://a.example/cb"], grant_types: ["implicit"] })).toMatchObject({
      ok: false,
      error: { code: "invalid_client_metadata" },
    });
    expect(readClientMetadata({ redirect_uris: ["https://a.example/cb"], scope: "work:read nope" })).toMatchObject({
      ok: false,
      error: { code: "invalid_client_metadata" },
    });
    expect(readClientMetadata({ redirect_uris: ["https://a.example/cb"], logo_uri: "http://a.example/logo.png" })).toMatchObject({
      ok: false,
    });
  });

  test("grant policy: people list their own, owners and admins all; revoking takes work:write over OAuth", () => {
    const p = (over: Partial<Principal>): Principal => ({
      workspaceId: "w",
      kind: "identity",
      identityId: "me",
      memberId: "m",
      role: "member",
      via: "api_key",
      credentialId: "k",
      scopes: ["work:read", "work:write", "topics:write"],
      ...over,
    });
    const grant = {
      id: "g",
      workspace_id: "w",
      identity_id: "me",
      client_id: "c",
      scopes: [],
      issuer: "i",
      created_at: "",
      last_used_at: null,
      revoked_at: null,
    };
    expect(canListGrants(p({}))).toBe(true);
    expect(canListAllGrants(p({}))).toBe(false);
    expect(canListAllGrants(p({ role: "admin" }))).toBe(true);
    expect(canListGrants(p({ kind: "service", identityId: null, role: null }))).toBe(false);
    expect(canRevokeGrant(p({}), grant)).toBe(true);
    expect(canRevokeGrant(p({ identityId: "other" }), grant)).toBe(false);
    expect(canRevokeGrant(p({ identityId: "other", role: "owner" }), grant)).toBe(true);
    expect(canRevokeGrant(p({ via: "oauth", scopes: ["work:read"] }), grant)).toBe(false);
    expect(canRevokeGrant(p({ workspaceId: "x" }), grant)).toBe(false);
  });
});
