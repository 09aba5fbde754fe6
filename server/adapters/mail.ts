import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { config } from "~/server/config";
import { log } from "~/server/log";

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  /** The Message-ID to send ("<…@host>"); nodemailer makes one when none is given. */
  messageId?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /**
   * Kept out of the mail log: the confirmation that an account was deleted, sent to the address
   * the deletion has just erased everywhere else (ADR 089).
   */
  unlogged?: boolean;
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string; file?: string }>;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL, credentials included; without it mail goes to `outbox`. */
  smtpUrl?: string;
  from: string;
  /** Folder that receives one .eml file per message when no SMTP server is configured. */
  outbox: string;
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : outboxMailer(options.outbox, options.from);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer's defaults wait minutes for a dead server; a visitor's request should not.
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    async send(message) {
      const info = await transport.sendMail(message);
      return { messageId: info.messageId };
    },
  };
}

function outboxMailer(outbox: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true }, { from });
  return {
    async send(message) {
      const info = await transport.sendMail(message);
      await mkdir(outbox, { recursive: true });
      const file = path.join(outbox, outboxFileName());
      await writeFile(file, info.message as Buffer, { flag: "wx" });
      log.info(`mail: wrote ${file}`);
      return { messageId: info.messageId, file };
    },
  };
}

let sequence = 0;

/**
 * Time first so a plain `ls` lists messages in the order they were sent; the counter keeps
 * that order within one millisecond, the random tail keeps processes sharing a folder apart.
 */
function outboxFileName(now = new Date()): string {
  sequence = (sequence + 1) % 1_000_000;
  const stamp = now.toISOString().replace(/:/g, "-");
  return `${stamp}-${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}.eml`;
}

/** One message handed over, as the mail log keeps it: never its body, whose links are secrets. */
export interface SentMail {
  recipients: string[];
  subject: string;
  messageId: string;
  at: Date;
}

type Journal = (sent: SentMail) => Promise<void>;
let journal: Journal | undefined;

/**
 * Where the site's mailer logs each message it handed over (ADR 087): set by the process once
 * its database is open. A log that fails is reported and never fails the send.
 */
export function setMailJournal(write: Journal | undefined): void {
  journal = write;
}

function journaled(inner: Mailer): Mailer {
  return {
    async send({ unlogged, ...message }) {
      const result = await inner.send(message);
      if (unlogged) return result;
      const recipients = Array.isArray(message.to) ? message.to : [message.to];
      await journal?.({ recipients, subject: message.subject, messageId: result.messageId, at: new Date() }).catch((error: unknown) =>
        log.error("mail log failed", { error }),
      );
      return result;
    },
  };
}

let current: Mailer | undefined;

export function mailer(): Mailer {
  if (!current) {
    const c = config();
    current = journaled(createMailer({ smtpUrl: c.SMTP_URL, from: c.MAIL_FROM, outbox: path.join(c.dataDir, "mail") }));
  }
  return current;
}
