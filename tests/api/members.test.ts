import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

let t: TestApp;
let p: Personas;
beforeAll(async () => {
  t = await makeTestApp();
  p = await personas(t, "crew");
});
const path = (rest = "") => `/workspaces/crew/members${rest}`;

describe("members", () => {
  test("list shows each member with e-mail and role, oldest first", async () => {
    const res = await t.call("GET", path(), { key: p.member });
    expect(res.status).toBe(200);
    expect(res.body.members.map((m: any) => m.role)).toEqual(["owner", "admin", "member"]);
    expect(res.body).toMatchObject({ total: 3, has_more: false });
  });

  test("adding an existing person links the same identity; adding twice is 409", async () => {
    const other = await t.bootstrap("crew-other", "shared@example.com");
    const added = await t.call("POST", path(), { key: p.owner, body: { email: "shared@example.com", role: "admin" } });
    expect(added.status).toBe(201);
    expect(added.body.identity_id).toBe(other.body.owner.id);
    expect((await t.call("POST", path(), { key: p.owner, body: { email: "SHARED@example.com" } })).status).toBe(409);
    const removed = await t.call("DELETE", path(`/${added.body.id}`), { key: p.owner });
    expect(removed.status).toBe(200);
  });

  test("admins manage members but not owners", async () => {
    const res = await t.call("POST", path(), { key: p.admin, body: { email: "new-hire@example.com" } });
    expect(res.status).toBe(201);
    expect(res.body.role).toBe("member");
    expect((await t.call("PATCH", path(`/${res.body.id}`), { key: p.admin, body: { role: "admin" } })).body.role).toBe("admin");
    expect((await t.call("PATCH", path(`/${res.body.id}`), { key: p.admin, body: { role: "owner" } })).status).toBe(403);
    expect((await t.call("POST", path(), { key: p.admin, body: { email: "boss@example.com", role: "owner" } })).status).toBe(403);
    expect((await t.call("DELETE", path(`/${p.ownerMemberId}`), { key: p.admin })).status).toBe(403);
    expect((await t.call("DELETE", path(`/${res.body.id}`), { key: p.admin })).status).toBe(200);
  });

  test("the last owner can be neither demoted nor removed (409 LAST_OWNER)", async () => {
    const demote = await t.call("PATCH", path(`/${p.ownerMemberId}`), { key: p.owner, body: { role: "admin" } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe("LAST_OWNER");
    const leave = await t.call("DELETE", path(`/${p.ownerMemberId}`), { key: p.owner });
    expect(leave.status).toBe(409);
    const still = await t.call("GET", path(), { key: p.owner });
    expect(still.body.members.filter((m: any) => m.role === "owner")).toHaveLength(1);
  });

  test("with a second owner, the first may step down", async () => {
    const ws = await personas(t, "crew-two");
    const promote = await t.call("PATCH", `/workspaces/crew-two/members/${ws.adminMemberId}`, { key: ws.owner, body: { role: "owner" } });
    expect(promote.body.role).toBe("owner");
    const down = await t.call("PATCH", `/workspaces/crew-two/members/${ws.ownerMemberId}`, { key: ws.owner, body: { role: "member" } });
    expect(down.status).toBe(200);
    // the former owner's key now carries the member role
    expect((await t.call("PATCH", "/workspaces/crew-two/plan", { key: ws.owner, body: { plan: "team" } })).status).toBe(403);
  });

  test("a member may leave; their keys stop working", async () => {
    const ws = await personas(t, "crew-three");
    expect((await t.call("DELETE", `/workspaces/crew-three/members/${ws.memberMemberId}`, { key: ws.member })).status).toBe(200);
    expect((await t.call("GET", "/workspaces/crew-three", { key: ws.member })).status).toBe(401);
  });

  test("a member cannot remove someone else (403); bad ids and roles are 400", async () => {
    expect((await t.call("DELETE", path(`/${p.adminMemberId}`), { key: p.member })).status).toBe(403);
    expect((await t.call("DELETE", path("/not-a-uuid"), { key: p.owner })).status).toBe(400);
    expect((await t.call("PATCH", path(`/${p.memberMemberId}`), { key: p.owner, body: { role: "root" } })).status).toBe(400);
    expect((await t.call("PATCH", path(`/${p.memberMemberId}`), { key: p.owner, body: { role: "admin", extra: 1 } })).status).toBe(400);
    expect((await t.call("POST", path(), { key: p.owner, body: { email: "x".repeat(250) + "@e.com" } })).status).toBe(400);
  });
});
