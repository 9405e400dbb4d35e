import { beforeAll, describe, expect, test } from "bun:test";
import { createSession } from "../../core/identity/mod.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const DAY = 86_400_000;

/** Dashboard sessions over HTTP: the cookie, the person's memberships, the Origin rule, extension. */
describe("dashboard sessions", () => {
  const clock = fixedClock(new Date("2030-01-01T00:00:00Z"));
  let t: TestApp;
  let cookie: string;
  let ownerId: string;
  beforeAll(async () => {
    t = await makeTestApp(undefined, { core: { clock } });
    const a = await t.bootstrap("sess-a", "sess-person@example.com");
    await t.bootstrap("sess-b", "sess-other@example.com");
    const c = await t.bootstrap("sess-c", "sess-c-owner@example.com");
    // The person is an admin of sess-c too.
    const added = await t.call("POST", "/workspaces/sess-c/members", {
      key: c.key,
      body: { email: "sess-person@example.com", role: "admin" },
    });
    expect(added.status).toBe(201);
    ownerId = a.body.owner.id ?? a.body.member.identity_id;
    const { token } = await createSession(t.core as never, ownerId);
    cookie = `wks_session=${token}`;
  });

  test("GET /me over a session: workspace null, via session, every membership", async () => {
    const res = await t.call("GET", "/me", { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.body.principal.via).toBe("session");
    expect(res.body.workspace).toBeNull();
    expect(res.body.role).toBeNull();
    expect(res.body.identity.email).toBe("sess-person@example.com");
    const roles = Object.fromEntries(res.body.memberships.map((m: any) => [m.workspace.slug, m.role]));
    expect(roles).toEqual({ "sess-a": "owner", "sess-c": "admin" });
  });

  test("a workspace route checks the membership there: member gets its role, non-member 404", async () => {
    const a = await t.call("GET", "/workspaces/sess-a", { headers: { cookie } });
    expect(a.status).toBe(200);
    expect(a.body.slug).toBe("sess-a");
    const members = await t.call("GET", "/workspaces/sess-c/members", { headers: { cookie } });
    expect(members.status).toBe(200);
    const b = await t.call("GET", "/workspaces/sess-b", { headers: { cookie } });
    expect(b.status).toBe(404);
    expect(b.body.error.code).toBe("NOT_FOUND");
  });

  test("no cookie, or an unknown token: 401 (and the stale cookie is cleared)", async () => {
    expect((await t.call("GET", "/workspaces/sess-a")).status).toBe(401);
    const stale = await t.call("GET", "/me", { headers: { cookie: `wks_session=${"a".repeat(32)}` } });
    expect(stale.status).toBe(401);
    expect(stale.headers.get("set-cookie") ?? "").toContain("wks_session=;");
  });

  test("an unsafe request riding the cookie needs a same-origin Origin, else 403 with nothing changed", async () => {
    const body = { name: "Renamed by a session" };
    const none = await t.call("PATCH", "/workspaces/sess-a", { headers: { cookie }, body });
    expect(none.status).toBe(403);
    const other = await t.call("PATCH", "/workspaces/sess-a", { headers: { cookie, origin: "https://evil.example" }, body });
    expect(other.status).toBe(403);
    expect((await t.call("GET", "/workspaces/sess-a", { headers: { cookie } })).body.name).not.toBe(body.name);
    const same = await t.call("PATCH", "/workspaces/sess-a", { headers: { cookie, origin: "http://localhost" }, body });
    expect(same.status).toBe(200);
    expect(same.body.name).toBe(body.name);
  });

  test("a header credential wins over the cookie, and needs no Origin", async () => {
    const other = await t.bootstrap("sess-d", "sess-d@example.com");
    const res = await t.call("PATCH", "/workspaces/sess-d", { key: other.key, headers: { cookie }, body: { name: "By key" } });
    expect(res.status).toBe(200);
  });

  test("a session is extended, and its cookie set again, when used with under half of 30 days left", async () => {
    const { token, session } = await createSession(t.core as never, ownerId);
    const c = `wks_session=${token}`;
    clock.advance(10 * DAY);
    const early = await t.call("GET", "/me", { headers: { cookie: c } });
    expect(early.status).toBe(200);
    expect(early.headers.get("set-cookie")).toBeNull();
    clock.advance(6 * DAY);
    const late = await t.call("GET", "/me", { headers: { cookie: c } });
    expect(late.status).toBe(200);
    const set = late.headers.get("set-cookie")!;
    expect(set).toContain(`wks_session=${token}`);
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");
    expect(set).toContain("Path=/");
    const expires = new Date(/Expires=([^;]+)/.exec(set)![1]!).getTime();
    expect(expires).toBeGreaterThan(new Date(session.expires_at).getTime());
    expect(expires).toBe(Math.floor((clock.now().getTime() + 30 * DAY) / 1000) * 1000);
    clock.advance(31 * DAY);
    expect((await t.call("GET", "/me", { headers: { cookie: c } })).status).toBe(401);
  });
});
