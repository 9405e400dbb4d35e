import { describe, expect, test } from "bun:test";
import { AuthCache } from "../../adapters/cache/auth-cache.ts";
import type { KeyMatch } from "../../core/access/ports.ts";

const match = (workspaceId: string, keyId = "k1"): KeyMatch => ({
  key: {
    id: keyId,
    workspace_id: workspaceId,
    name: "n",
    prefix: "p",
    identity_id: null,
    created_by: null,
    key_hash: "h",
    key_ciphertext: "c",
    created_at: "2026-01-01T00:00:00.000Z",
    last_used_at: null,
  },
  workspace: {
    id: workspaceId,
    slug: "s",
    name: "n",
    plan: "free",
    settings: { review_interval_days: 90 },
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  },
  member: null,
});

describe("AuthCache", () => {
  test("AuthCache.get() serves an entry until its TTL passes", () => {
    const c = new AuthCache({ ttlMs: 1000, maxEntries: 10 });
    c.set("h1", match("w1"), c.begin(), 0);
    expect(c.get("h1", 999)?.workspace.id).toBe("w1");
    expect(c.get("h1", 1000)).toBeUndefined();
  });

  test("AuthCache.set() drops an answer whose lookup began before an invalidation", () => {
    const c = new AuthCache({ ttlMs: 1000, maxEntries: 10 });
    const started = c.begin();
    c.invalidate("w1"); // e.g. the key was revoked while the lookup was in flight
    c.set("h1", match("w1"), started, 0);
    expect(c.get("h1", 1)).toBeUndefined();
  });

  test("AuthCache.invalidate() forgets one workspace, or everything with *", () => {
    const c = new AuthCache({ ttlMs: 1000, maxEntries: 10 });
    c.set("a", match("w1"), c.begin(), 0);
    c.set("b", match("w2"), c.begin(), 0);
    c.invalidate("w1");
    expect(c.get("a", 1)).toBeUndefined();
    expect(c.get("b", 1)).toBeDefined();
    c.invalidate("*");
    expect(c.size).toBe(0);
  });

  test("AuthCache keeps at most maxEntries, evicting the oldest", () => {
    const c = new AuthCache({ ttlMs: 1000, maxEntries: 2 });
    for (const h of ["a", "b", "c"]) c.set(h, match("w"), c.begin(), 0);
    expect(c.size).toBe(2);
    expect(c.get("a", 1)).toBeUndefined();
    expect(c.get("c", 1)).toBeDefined();
  });

  test("AuthCache entries are frozen and touched() refreshes last_used_at", () => {
    const c = new AuthCache({ ttlMs: 1000, maxEntries: 2 });
    c.set("a", match("w"), c.begin(), 0);
    const got = c.get("a", 1)!;
    expect(Object.isFrozen(got.workspace)).toBe(true);
    c.touched("a", "2026-02-02T00:00:00.000Z");
    expect(c.get("a", 1)!.key.last_used_at).toBe("2026-02-02T00:00:00.000Z");
  });
});
