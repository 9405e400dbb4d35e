import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { OutgoingMail } from "../../core/mail/model.ts";
import type { Mailer } from "../../core/mail/ports.ts";

type Transporter = ReturnType<typeof nodemailer.createTransport>;

function message(from: string, mail: OutgoingMail) {
  return { from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers };
}

/**
 * The embedded default: each message is written, complete (RFC 5322, built by nodemailer's stream
 * transport, no network), as `<outbox>/<time>-<random>.eml`, through a temporary file and a
 * rename so a reader never sees half a message.
 */
export function createOutboxMailer(dir: string, from = "Workspace Knowledge <no-reply@localhost>"): Mailer {
  const build = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const info = await build.sendMail(message(from, mail));
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomUUID().slice(0, 8)}.eml`;
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await rename(tmp, join(dir, name));
    },
  };
}

/** SMTP through nodemailer: `SMTP_URL` (`smtp://` or `smtps://`, credentials in the URL) and `MAIL_FROM`. */
export function createSmtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport: Transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail(message(from, mail));
    },
    close: () => transport.close(),
  };
}
