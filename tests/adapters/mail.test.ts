import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailer } from "~/server/adapters/mail";
import { parseMessage, plainText, startLoopbackSmtp, type LoopbackSmtp, type Received } from "~/tests/helpers/smtp";
import { log } from "~/server/log";

const FROM = "Meridian Review <no-reply@meridian-review.example>";
const RESET_LINK = "http://localhost:3000/reset-password?token=3f9a1c7e0b";

describe("mail over SMTP", () => {
  let smtp: LoopbackSmtp;
  let received: Received[];
  let port: number;

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    received = smtp.received;
    port = smtp.port;
  });

  afterAll(() => smtp.stop());

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
    vi.spyOn(log, "info").mockImplementation((line: string) => void logged.push(line));
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
