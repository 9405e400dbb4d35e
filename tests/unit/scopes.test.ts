import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES, insufficientScope, missingScopes, scopesFor } from "../../core/access/scopes.ts";
import { credentialOf } from "../../server/http/credentials.ts";

describe("scopes", () => {
  test("scopesFor() asks work:read always, work:write for a write, topics:write (only) for adding a relation", () => {
    expect(scopesFor("read")).toEqual(["work:read"]);
    expect(scopesFor("write")).toEqual(["work:read", "work:write"]);
    expect(scopesFor("relate")).toEqual(["work:read", "topics:write"]);
  });

  test("missingScopes() is empty for an API key's scopes, and names what a narrower grant lacks", () => {
    for (const op of ["read", "write", "relate"] as const) expect(missingScopes({ scopes: API_KEY_SCOPES }, op)).toEqual([]);
    expect(missingScopes({ scopes: ["work:read"] }, "write")).toEqual(["work:write"]);
    expect(missingScopes({ scopes: ["work:read", "work:write"] }, "relate")).toEqual(["topics:write"]);
  });

  test("insufficientScope() is a FORBIDDEN naming every scope the operation needs", () => {
    const e = insufficientScope("create a topic", "write");
    expect(e.code).toBe("FORBIDDEN");
    expect(e.message).toBe("Cannot create a topic: scope work:write is required");
    expect(e.meta).toEqual({ required_scope: "work:read work:write" });
  });
});

describe("credentialOf()", () => {
  const h = (init: Record<string, string>) => new Headers(init);
  test("reads a bearer credential, any case of the scheme, or x-api-key; nothing else", () => {
    expect(credentialOf(h({ authorization: "Bearer abc" }))).toEqual({ value: "abc", scheme: "bearer" });
    expect(credentialOf(h({ authorization: "BEARER   abc " }))).toEqual({ value: "abc", scheme: "bearer" });
    expect(credentialOf(h({ "x-api-key": " k " }))).toEqual({ value: "k", scheme: "api-key" });
    expect(credentialOf(h({ authorization: "Basic dTpw" }))).toBeNull();
    expect(credentialOf(h({}))).toBeNull();
  });

  test("the same value in both headers is one credential; two different values are refused", () => {
    expect(credentialOf(h({ authorization: "Bearer k", "x-api-key": "k" }))).toEqual({ value: "k", scheme: "bearer" });
    expect(() => credentialOf(h({ authorization: "Bearer k", "x-api-key": "j" }))).toThrow(/two different values/);
  });

  test("an empty Bearer is an invalid credential, not an absent one", () => {
    expect(() => credentialOf(h({ authorization: "Bearer" }))).toThrow(/names no bearer token/);
  });
});
