import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOutboxMailer } from "../../adapters/mail/nodemailer.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { mailHooks } from "../../core/mail/hooks.ts";
import { unsubscribeToken } from "../../core/mail/unsubscribe-token.ts";
import { jobRunner } from "../../workers/registry.ts";
import { makeTestApp, TEST_SECRET, type TestApp } from "../support/test-app.ts";

let t: TestApp;
let outbox: string;
const queue = createMemoryJobQueue(() => {});

beforeAll(async () => {
  outbox = mkdtempSync(join(tmpdir(), "outbox-"));
  t = await makeTestApp(undefined, {
    core: {
      jobs: queue,
      mail: { mailer: createOutboxMailer(outbox, "KB <kb@example.com>"), publicUrl: "https://kb.example.com", secret: TEST_SECRET },
      ...mailHooks,
    },
  });
  queue.consume(jobRunner(() => t.core));
});
afterAll(async () => {
  await queue.close();
  rmSync(outbox, { recursive: true, force: true });
});

/** The messages in the outbox to `to`, each as its raw text, once the queue has run. */
async function mailTo(to: string): Promise<string[]> {
  await queue.drain();
  return readdirSync(outbox).filter((f) => f.endsWith(".eml")).map((f) => readFileSync(join(outbox, f), "utf8")).filter((m) =>
    new RegExp(`^To: ${to.replace(/[.+]/g, "\\$&")}$`, "mi").test(m)
  );
}

/** The unsubscribe URL of a message (its List-Unsubscribe header). */
const unsubscribeUrlOf = (eml: string) => /^List-Unsubscribe: <([^>]+)>$/m.exec(eml.replace(/\r?\n[ \t]+/g, " "))![1]!;
const pathOf = (url: string) => url.replace("https://kb.example.com/api/v1", "");

describe("mail", () => {
  test("adding a member queues a mail.send job: text and HTML, an unsubscribe link, RFC 8058 headers, PUBLIC_URL links", async () => {
    const ws = await t.bootstrap("mail-a");
    const added = await t.call("POST", `/workspaces/mail-a/members`, { key: ws.key, body: { email: "new@example.com", role: "admin" } });
    expect(added.status).toBe(201);
    const [eml, ...rest] = await mailTo("new@example.com");
    expect(rest).toEqual([]);
    expect(eml).toMatch(/^From: KB <kb@example\.com>$/m);
    expect(eml).toMatch(/^Subject: You were added to mail-a$/m);
    expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(eml).toContain("Content-Type: text/plain");
    expect(eml).toContain("Content-Type: text/html");
    const url = unsubscribeUrlOf(eml!);
    expect(url).toMatch(/^https:\/\/kb\.example\.com\/api\/v1\/email\/unsubscribe\?token=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(eml!.replace(/=\r?\n/g, "")).toContain("https://kb.example.com/api/v1/workspaces/mail-a");
  });

  test("GET of the link changes nothing; POST (form or one-click) unsubscribes, idempotently; no more mail of that list", async () => {
    const ws = await t.bootstrap("mail-b");
    await t.call("POST", `/workspaces/mail-b/members`, { key: ws.key, body: { email: "leaver@example.com" } });
    const [eml] = await mailTo("leaver@example.com");
    const path = pathOf(unsubscribeUrlOf(eml!));

    const page = await t.call("GET", path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.body).toContain('<form method="post"');
    expect(page.body).toContain('data-list="membership"');
    expect(page.body).not.toContain("<script");
    await t.call("GET", path);
    const again = await t.call("POST", `/workspaces/mail-b/members`, { key: ws.key, body: { email: "leaver2@example.com" } });
    expect(again.status).toBe(201);

    const oneClick = await t.call("POST", path, {
      rawBody: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.body).toContain("You are unsubscribed");
    expect(oneClick.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect((await t.call("POST", path)).status).toBe(200);

    // Another workspace adds the same person: the membership list is left, so no mail.
    const other = await t.bootstrap("mail-c");
    await t.call("POST", `/workspaces/mail-c/members`, { key: other.key, body: { email: "leaver@example.com" } });
    expect(await mailTo("leaver@example.com")).toHaveLength(1);
  });

  test("sharing a note mails each recipient on the shared_notes list, which is left apart from membership", async () => {
    const ws = await t.bootstrap("mail-d");
    const reader = await t.call("POST", `/workspaces/mail-d/members`, {
      key: ws.key,
      body: { email: "reader@example.com", role: "admin" },
    });
    const [welcome] = await mailTo("reader@example.com");
    // Leave membership mail: shared notes still arrive.
    expect((await t.call("POST", pathOf(unsubscribeUrlOf(welcome!)))).status).toBe(200);
    const topic = await t.call("POST", `/workspaces/mail-d/topics`, { key: ws.key, body: { title: "Rounding of VAT", body: "Half up." } });
    const shared = await t.call("POST", `/workspaces/mail-d/topics/${topic.body.slug}/share-with`, {
      key: ws.key,
      body: { member_ids: [reader.body.id], message: "Please <b>review</b>" },
    });
    expect(shared.status).toBe(201);
    const mails = await mailTo("reader@example.com");
    expect(mails).toHaveLength(2);
    const note = mails.find((m) => m.includes("shared"))!;
    const body = note.replace(/=\r?\n/g, "");
    expect(note).toMatch(/^Subject: =\?UTF-8\?Q\?mail-d-owner/m);
    expect(body).toContain('mail-d-owner@example.com shared the note "Rounding of VAT" with you in mail-d.');
    expect(body).toContain("Their message: Please <b>review</b>"); // the text part, as written
    expect(body).toContain("Their message: Please &lt;b&gt;review&lt;/b&gt;"); // the HTML part, escaped
    const path = pathOf(unsubscribeUrlOf(note));
    expect(path).not.toBe(pathOf(unsubscribeUrlOf(welcome!)));
    expect((await t.call("GET", path)).body).toContain('data-list="shared_notes"');
    expect((await t.call("POST", path)).status).toBe(200);
    await t.call("POST", `/workspaces/mail-d/topics/${topic.body.slug}/share-with`, {
      key: ws.key,
      body: { member_ids: [reader.body.id] },
    });
    expect(await mailTo("reader@example.com")).toHaveLength(2);
  });

  test("a missing, malformed or forged token is a 400 page on GET and POST, nothing changed", async () => {
    const forged = await unsubscribeToken("another-secret-another-secret-another-1", "0190a0a0-0000-7000-8000-000000000000", "billing");
    const valid = await unsubscribeToken(TEST_SECRET, "0190a0a0-0000-7000-8000-000000000000", "billing");
    const tampered = valid.replace(/^[^.]+/, btoa("0190a0a0-0000-7000-8000-000000000001:billing").replace(/=+$/, ""));
    for (const query of ["", "?token=", "?token=abc", "?token=a.b.c", `?token=${forged}`, `?token=${tampered}`]) {
      for (const method of ["GET", "POST"]) {
        const res = await t.call(method, `/email/unsubscribe${query}`);
        expect(res.status).toBe(400);
        expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
        expect(res.body).toContain("not valid");
      }
    }
    expect(await t.core.stores.unsubscribes.has("0190a0a0-0000-7000-8000-000000000000", "billing")).toBe(false);
    expect((await t.call("GET", "/email/unsubscribe?token=x&other=1")).status).toBe(400);
  });

  test("the unsubscribe pages are counted per client address (429 past the limit)", async () => {
    const limited = await makeTestApp(undefined, { rateLimits: { perIp: { limit: 2, windowMs: 60_000 } } });
    const hit = (ip: string) => limited.call("GET", "/email/unsubscribe?token=x", { headers: { "x-forwarded-for": ip } });
    expect((await hit("203.0.113.9")).status).toBe(400);
    expect((await hit("203.0.113.9")).status).toBe(400);
    const over = await hit("203.0.113.9");
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("RATE_LIMITED");
    expect((await hit("203.0.113.10")).status).toBe(400);
  });

  test("the OpenAPI document has both operations, public", async () => {
    const spec = (await t.call("GET", "/openapi.json")).body;
    const op = spec.paths["/api/v1/email/unsubscribe"];
    expect(op.get.security).toEqual([]);
    expect(op.post.security).toEqual([]);
    expect(Object.keys(op.post.responses)).toEqual(expect.arrayContaining(["200", "400", "429"]));
  });
});
