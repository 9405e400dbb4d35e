import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import type { Principal } from "../../core/access/principal.ts";
import { assertCanEnrich, assertCanUnlockContacts, canEnrich, canUnlockContacts } from "../../core/contacts/policy.ts";

const member: Principal = {
  workspaceId: "w",
  kind: "identity",
  identityId: "i",
  memberId: "m",
  role: "member",
  via: "api_key",
  credentialId: "k",
  scopes: API_KEY_SCOPES,
};
const service: Principal = { ...member, kind: "service", identityId: null, memberId: null, role: null };
const readOnly: Principal = { ...member, via: "oauth", scopes: ["work:read"] };

describe("contacts policy", () => {
  test("canUnlockContacts() and canEnrich() let every writer spend credits, and no read-only token", () => {
    for (const can of [canUnlockContacts, canEnrich]) {
      expect(can(member)).toBe(true);
      expect(can(service)).toBe(true);
      expect(can(readOnly)).toBe(false);
    }
  });

  test("assertCanUnlockContacts() and assertCanEnrich() refuse a read-only token, naming the act and the scope", () => {
    expect(() => assertCanUnlockContacts(member)).not.toThrow();
    expect(() => assertCanEnrich(service)).not.toThrow();
    expect(() => assertCanUnlockContacts(readOnly)).toThrow("Cannot unlock contact paths: scope work:write is required");
    expect(() => assertCanEnrich(readOnly)).toThrow("Cannot enrich radar results: scope work:write is required");
  });
});
