import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server on a loopback port that keeps what it receives, for tests of what the
// site mails.

export interface Received {
  mailFrom: string | undefined;
  rcptTo: string[];
  raw: string;
}

export interface LoopbackSmtp {
  port: number;
  url: string;
  received: Received[];
  /** Resolves with the first message (already received or yet to come) that matches. */
  waitFor: (match: (message: Received) => boolean) => Promise<Received>;
  stop: () => Promise<void>;
}

export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const received: Received[] = [];
  const arrivals = new EventEmitter();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const mailFrom = session.envelope.mailFrom;
        const message = {
          mailFrom: mailFrom ? mailFrom.address : undefined,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        };
        received.push(message);
        arrivals.emit("message", message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const waitFor = (match: (message: Received) => boolean) =>
    new Promise<Received>((resolve) => {
      const found = received.find(match);
      if (found) return resolve(found);
      const listener = (message: Received) => {
        if (!match(message)) return;
        arrivals.off("message", listener);
        resolve(message);
      };
      arrivals.on("message", listener);
    });
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Splits a raw message into its headers (unfolded) and its body. */
export function parseMessage(raw: string): { header(name: string): string | undefined; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { header: (name) => headers.get(name.toLowerCase()), body: raw.slice(split + 4) };
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Whether a message's (unfolded) subject matches. */
export const hasSubject = (message: Received, subject: RegExp) => subject.test(parseMessage(message.raw).header("subject") ?? "");

/** A password-reset link's mail, and the welcome every new account is sent. */
export const RESET_SUBJECT = /^Reset your Meridian Review password$/;
export const WELCOME_SUBJECT = /^Welcome to Meridian Review$/;

/** The decoded text/plain part, whether the message is single-part or multipart. */
export function plainText(raw: string): string {
  const message = parseMessage(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(message.header("content-type") ?? "")?.[1];
  const parts = boundary ? message.body.split(`--${boundary}`).map((p) => p.replace(/^\r\n/, "")) : [raw];
  for (const part of parts) {
    const parsed = parseMessage(part);
    if (!/^text\/plain/i.test(parsed.header("content-type") ?? "")) continue;
    const encoding = (parsed.header("content-transfer-encoding") ?? "7bit").toLowerCase();
    if (encoding === "quoted-printable") return decodeQuotedPrintable(parsed.body);
    if (encoding === "base64") return Buffer.from(parsed.body, "base64").toString("utf8");
    return parsed.body;
  }
  throw new Error("message has no text/plain part");
}
