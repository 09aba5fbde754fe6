import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailer } from "../../server/adapters/mail";

const FROM = "Meridian Review <no-reply@meridian-review.example>";
const RESET_LINK = "http://localhost:3000/reset-password?token=3f9a1c7e0b";

interface Received {
  mailFrom: string | undefined;
  rcptTo: string[];
  raw: string;
}

/** Splits a raw message into its headers (unfolded) and its body. */
function parseMessage(raw: string): { header(name: string): string | undefined; body: string } {
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
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The decoded text/plain part, whether the message is single-part or multipart. */
function plainText(raw: string): string {
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

describe("mail over SMTP", () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const mailFrom = session.envelope.mailFrom;
          received.push({
            mailFrom: mailFrom ? mailFrom.address : undefined,
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("delivers the message, with its link intact, to the SMTP server named by the URL", async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, outbox: "/nonexistent" });

    const result = await mailer.send({
      to: "reader@example.com",
      subject: "Reset your Meridian Review password",
      text: `Someone asked to reset your password. Choose a new one here:\n\n${RESET_LINK}\n\nThe link works for one hour.`,
      html: `<p>Choose a new password: <a href="${RESET_LINK}">reset it</a></p>`,
      headers: { "X-Meridian-Purpose": "password-reset" },
    });

    expect(result.file).toBeUndefined();
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.mailFrom).toBe("no-reply@meridian-review.example");
    expect(mail!.rcptTo).toEqual(["reader@example.com"]);
    const message = parseMessage(mail!.raw);
    expect(message.header("subject")).toBe("Reset your Meridian Review password");
    expect(message.header("x-meridian-purpose")).toBe("password-reset");
    expect(message.header("message-id")).toBe(result.messageId);
    expect(plainText(mail!.raw)).toContain(RESET_LINK);
  });
});

describe("mail to the outbox folder (no SMTP configured)", () => {
  let outbox: string;

  beforeAll(async () => {
    outbox = path.join(await mkdtemp(path.join(tmpdir(), "meridian-mail-")), "mail");
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  afterAll(async () => {
    await rm(path.dirname(outbox), { recursive: true, force: true });
  });

  it("writes each message as an .eml file, in send order, and logs where it went", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "info").mockImplementation((line: string) => void logged.push(line));
    const mailer = createMailer({ from: FROM, outbox });

    const first = await mailer.send({
      to: ["editor@example.com", "desk@example.com"],
      subject: "Confirm your registration",
      text: `Confirm here: ${RESET_LINK}`,
    });
    const second = await mailer.send({ to: "reader@example.com", subject: "Second message", text: "Hello" });

    expect(first.file).toBeDefined();
    expect(path.dirname(first.file!)).toBe(outbox);
    expect(first.file).toMatch(/\.eml$/);
    expect(logged).toEqual([`mail: wrote ${first.file}`, `mail: wrote ${second.file}`]);

    const files = (await readdir(outbox)).sort();
    expect(files.map((f) => path.join(outbox, f))).toEqual([first.file, second.file]);

    const raw = await readFile(first.file!, "utf8");
    expect(raw).toMatch(/^Subject: Confirm your registration\r?$/m);
    expect(raw).toMatch(/^To: editor@example\.com, desk@example\.com\r?$/m);
    expect(raw).toMatch(/^From: Meridian Review <no-reply@meridian-review\.example>\r?$/m);
    expect(raw).toContain(first.messageId);
  });
});
