import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SMTPServer } from "smtp-server";
import { createSmtpMailer } from "../../adapters/mail/nodemailer.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import type { Job, JobKind } from "../../core/jobs/kind.ts";
import { jobOf } from "../../core/jobs/kind.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { composeMail } from "../../core/mail/messages.ts";
import type { Mailer } from "../../core/mail/ports.ts";
import { MAIL_ATTEMPTS, mailSendJob, type MailSendPayload, runMailSend } from "../../core/mail/send-job.ts";

interface Received {
  from: string;
  to: string[];
  data: string;
}

let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const mail = (to: string) =>
  composeMail(
    to,
    "membership",
    { subject: "Hello", paragraphs: ["Line one."] },
    "https://kb.example.com/api/v1/email/unsubscribe?token=t.u",
  );

describe("SMTP mailer (nodemailer) against smtp-server", () => {
  test("createSmtpMailer() delivers text and HTML with the unsubscribe headers, from MAIL_FROM", async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, "KB <kb@example.com>");
    await mailer.send(mail("ana@example.com"));
    mailer.close();
    const found = received.find((r) => r.to.includes("ana@example.com"))!;
    // Headers unfolded (RFC 5322 §2.2.3), lines ending in CRLF on the wire.
    const got = { ...found, data: found.data.replace(/\r\n/g, "\n").replace(/\n[ \t]+/g, " ") };
    expect(got.from).toBe("kb@example.com");
    expect(got.data).toMatch(/^Subject: Hello$/m);
    expect(got.data).toMatch(/^List-Unsubscribe: <https:\/\/kb\.example\.com\/api\/v1\/email\/unsubscribe\?token=t\.u>$/m);
    expect(got.data).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(got.data).toContain("Content-Type: text/plain");
    expect(got.data).toContain("Content-Type: text/html");
  });

  test("a server that is not there fails the send (the job retries)", async () => {
    const mailer = createSmtpMailer("smtp://127.0.0.1:1", "kb@example.com");
    await expect(mailer.send(mail("bo@example.com"))).rejects.toThrow();
    mailer.close();
  });
});

describe("runMailSend()", () => {
  const payload: MailSendPayload = {
    ref: "member:1",
    identity_id: "0190a0a0-0000-7000-8000-000000000000",
    to: "cy@example.com",
    list: "membership",
    attempt: 1,
    content: { template: "member_added", workspace_name: "Acme", workspace_slug: "acme", role: "member", added_by: null },
  };

  async function depsWith(mailer: Mailer) {
    const queued: Array<{ job: Job; delayMs?: number }> = [];
    const deps: ComposedDeps = {
      stores: createMemoryStores(),
      clock: systemClock,
      secretBox: await createSecretBox("x".repeat(32)),
      mail: { mailer, publicUrl: "https://kb.example.com", secret: "x".repeat(32) },
      jobs: {
        async enqueue<K extends JobKind>(kind: K, ws: string, p: Job<K>["payload"], opts?: { delayMs?: number }) {
          queued.push({ job: jobOf(kind, ws, p), delayMs: opts?.delayMs });
        },
      },
    };
    return { deps, queued };
  }

  test("a failed send is queued again with a growing delay, and the last attempt throws", async () => {
    const failing: Mailer = { send: () => Promise.reject(new Error("connection refused")) };
    const { deps, queued } = await depsWith(failing);
    expect(await runMailSend(deps, "ws", payload)).toBe("retrying");
    expect(queued).toHaveLength(1);
    expect(queued[0]!.job.kind).toBe(mailSendJob.name);
    expect(queued[0]!.job.payload).toEqual({ ...payload, attempt: 2 });
    expect(queued[0]!.delayMs).toBe(2_000);
    expect(await runMailSend(deps, "ws", { ...payload, attempt: 2 })).toBe("retrying");
    expect(queued[1]!.delayMs).toBe(8_000);
    await expect(runMailSend(deps, "ws", { ...payload, attempt: MAIL_ATTEMPTS })).rejects.toThrow("connection refused");
    expect(queued).toHaveLength(2);
  });

  test("nothing is sent to a person who left the list; other lists still are", async () => {
    const sent: string[] = [];
    const { deps } = await depsWith({ send: async (m) => void sent.push(m.subject) });
    await deps.stores.unsubscribes.add(payload.identity_id, "membership", new Date().toISOString());
    expect(await runMailSend(deps, "ws", payload)).toBe("unsubscribed");
    expect(sent).toEqual([]);
    const shared: MailSendPayload = {
      ...payload,
      list: "shared_notes",
      content: {
        template: "note_shared",
        workspace_name: "Acme",
        workspace_slug: "acme",
        topic_title: "T",
        topic_slug: "t",
        shared_by: null,
        message: null,
      },
    };
    expect(await runMailSend(deps, "ws", shared)).toBe("sent");
    expect(sent).toEqual(['Someone shared "T" with you']);
  });
});
