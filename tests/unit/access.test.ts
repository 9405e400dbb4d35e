import { describe, expect, test } from "bun:test";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { displayPrefix, generateRawKey, hashRawKey, looksLikeRawKey } from "../../core/access/raw-key.ts";
import { actorKind, isOwnerOrAdmin } from "../../core/access/policy.ts";
import { canAssignRole } from "../../core/workspaces/policy.ts";
import type { Principal } from "../../core/access/principal.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";

const person = (role: Principal["role"], via: Principal["via"] = "api_key"): Principal => ({
  workspaceId: "w",
  kind: "identity",
  identityId: "i",
  memberId: "m",
  role,
  via,
  credentialId: "k",
  scopes: API_KEY_SCOPES,
});
const service: Principal = {
  workspaceId: "w",
  scopes: API_KEY_SCOPES,
  kind: "service",
  identityId: null,
  memberId: null,
  role: null,
  via: "api_key",
  credentialId: "k",
};

describe("policy", () => {
  test("isOwnerOrAdmin() holds for people with owner or admin roles only", () => {
    expect(isOwnerOrAdmin(person("owner"))).toBe(true);
    expect(isOwnerOrAdmin(person("admin"))).toBe(true);
    expect(isOwnerOrAdmin(person("member"))).toBe(false);
    expect(isOwnerOrAdmin(service)).toBe(false);
  });

  test("canAssignRole() lets only owners grant or withdraw the owner role", () => {
    expect(canAssignRole(person("admin"), "member", "admin")).toBe(true);
    expect(canAssignRole(person("admin"), "member", "owner")).toBe(false);
    expect(canAssignRole(person("admin"), "owner", "member")).toBe(false);
    expect(canAssignRole(person("owner"), "owner", "member")).toBe(true);
    expect(canAssignRole(person("member"), "member", "admin")).toBe(false);
  });

  test("actorKind() is agent for faceless and OAuth principals, human otherwise", () => {
    expect(actorKind(person("owner"))).toBe("human");
    expect(actorKind(person("owner", "oauth"))).toBe("agent");
    expect(actorKind(service)).toBe("agent");
  });
});

describe("API key material", () => {
  test("generateRawKey() makes distinct keys of the documented shape", () => {
    const keys = new Set(Array.from({ length: 200 }, generateRawKey));
    expect(keys.size).toBe(200);
    for (const k of keys) expect(looksLikeRawKey(k)).toBe(true);
    expect(looksLikeRawKey("wks_short")).toBe(false);
  });

  test("hashRawKey() is a stable SHA-256 hex digest; displayPrefix() shows 12 characters", async () => {
    expect(await hashRawKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(displayPrefix("wks_abcdefghijklmnop")).toBe("wks_abcdefgh");
    const raw = generateRawKey();
    expect(await hashRawKey(raw)).toBe(Bun.SHA256.hash(raw, "hex"));
  });

  test("createSecretBox() round-trips and uses a fresh IV each time", async () => {
    const box = await createSecretBox("s".repeat(32));
    const a = await box.seal("raw-key");
    const b = await box.seal("raw-key");
    expect(a).not.toBe(b);
    expect(await box.open(a)).toBe("raw-key");
    const other = await createSecretBox("t".repeat(32));
    await expect(other.open(a)).rejects.toThrow();
    await expect(createSecretBox("short")).rejects.toThrow();
  });
});
