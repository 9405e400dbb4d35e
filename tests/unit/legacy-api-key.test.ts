import { describe, expect, test } from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { displayPrefix, generateRawKey, hashRawKey, looksLikeRawKey } from "../../core/access/raw-key.ts";
import { authenticateApiKey } from "../../core/access/authenticate.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { makeTestApp, TEST_SECRET } from "../support/test-app.ts";
import legacy from "./fixtures/legacy-api-key.json" with { type: "json" };

/** A fresh store holding the workspace, owner, membership and key exactly as the previous code stored them. */
async function storesWithLegacyKey() {
  const stores = createMemoryStores();
  const stored = await stores.workspaces.bootstrap({
    workspace: legacy.workspace as Parameters<typeof stores.workspaces.bootstrap>[0]["workspace"],
    owner: { identity: legacy.owner, isNew: true },
    member: legacy.member as Parameters<typeof stores.workspaces.bootstrap>[0]["member"],
    apiKey: legacy.api_key,
  });
  expect(stored).toBe("ok");
  return stores;
}

describe("API keys issued before the move to @oslojs (ADR 060)", () => {
  test("the stored digest and prefix of a key minted by the previous code are what the current code computes", () => {
    expect(looksLikeRawKey(legacy.raw_key)).toBe(true);
    expect(hashRawKey(legacy.raw_key)).toBe(legacy.api_key.key_hash);
    expect(displayPrefix(legacy.raw_key)).toBe(legacy.api_key.prefix);
  });

  test("authenticateApiKey() resolves the legacy key to its owner in its workspace", async () => {
    const deps = { stores: await storesWithLegacyKey(), clock: systemClock, secretBox: await createSecretBox(TEST_SECRET) };
    const auth = await authenticateApiKey(deps, legacy.raw_key);
    expect(auth.workspace.slug).toBe("legacy-keys");
    expect(auth.principal).toMatchObject({
      workspaceId: legacy.workspace.id,
      kind: "identity",
      identityId: legacy.owner.id,
      memberId: legacy.member.id,
      role: "owner",
      via: "api_key",
      credentialId: legacy.api_key.id,
    });
  });

  test("the legacy key opens its workspace over HTTP; a key one character off is 401", async () => {
    const t = await makeTestApp(await storesWithLegacyKey());
    const res = await t.call("GET", "/workspaces/legacy-keys", { key: legacy.raw_key });
    expect([res.status, res.body.slug]).toEqual([200, "legacy-keys"]);
    const off = legacy.raw_key.slice(0, -1) + (legacy.raw_key.endsWith("a") ? "b" : "a");
    expect((await t.call("GET", "/workspaces/legacy-keys", { key: off })).status).toBe(401);
  });

  test("keys minted now have the legacy shape: prefix, length and alphabet", () => {
    for (let i = 0; i < 100; i++) {
      const raw = generateRawKey();
      expect(raw.length).toBe(legacy.raw_key.length);
      expect(/^wks_[a-z2-7]{40}$/.test(raw)).toBe(true);
      expect(looksLikeRawKey(raw)).toBe(true);
    }
  });
});
