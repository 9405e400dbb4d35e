import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";
import { openEventStream } from "../support/event-stream.ts";

let t: TestApp;
let p: Personas;
beforeAll(async () => {
  t = await makeTestApp();
  p = await personas(t, "stream-ws");
});

describe("GET /workspaces/{slug}/events/stream", () => {
  test("streams the workspace's events as Server-Sent Events", async () => {
    const stream = await openEventStream(
      (init) => t.app.handle(new Request("http://localhost/api/v1/workspaces/stream-ws/events/stream", init)),
      p.member,
    );
    expect(stream.contentType).toBe("text/event-stream");
    await t.call("POST", "/workspaces/stream-ws/areas", { key: p.owner, body: { name: "Streamed" } });
    const e = await stream.next((ev) => ev.type === "area.created");
    expect(e.data).toMatchObject({ name: "Streamed" });
    expect(e.workspace_id).toBe((await t.call("GET", "/workspaces/stream-ws", { key: p.owner })).body.id);
    stream.close();
  });

  test("does not deliver other workspaces' events", async () => {
    const other = await personas(t, "stream-other");
    const stream = await openEventStream(
      (init) => t.app.handle(new Request("http://localhost/api/v1/workspaces/stream-ws/events/stream", init)),
      p.owner,
    );
    await t.call("POST", "/workspaces/stream-other/areas", { key: other.owner, body: { name: "Elsewhere" } });
    await t.call("POST", "/workspaces/stream-ws/areas", { key: p.owner, body: { name: "Here" } });
    const e = await stream.next((ev) => ev.type === "area.created");
    expect(e.data.name).toBe("Here");
    stream.close();
  });

  test("ends when the caller's own key is revoked", async () => {
    const k = await t.call("POST", "/workspaces/stream-ws/api-keys", { key: p.owner, body: { name: "watcher" } });
    const stream = await openEventStream(
      (init) => t.app.handle(new Request("http://localhost/api/v1/workspaces/stream-ws/events/stream", init)),
      k.body.key,
    );
    await t.call("DELETE", `/workspaces/stream-ws/api-keys/${k.body.id}`, { key: p.owner });
    await stream.next((ev) => ev.type === "api_key.revoked");
    expect(await stream.ended()).toBe(true);
  });

  test("needs credentials of the workspace", async () => {
    expect((await t.call("GET", "/workspaces/stream-ws/events/stream")).status).toBe(401);
    const other = await t.bootstrap("stream-stranger");
    expect((await t.call("GET", "/workspaces/stream-ws/events/stream", { key: other.key })).status).toBe(404);
  });
});
