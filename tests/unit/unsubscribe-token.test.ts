import { describe, expect, it } from "vitest";
import { composeIssue, templateIssue } from "~/server/newsletters/issue";
import { readUnsubscribeToken, unsubscribeToken } from "~/server/newsletters/unsubscribe-token";

const SECRET = "unit-test-secret-0123456789abcdefghijkl";

describe("newsletter unsubscribe token", () => {
  it("round-trips the reader and newsletter, and only under the same secret", () => {
    const token = unsubscribeToken(SECRET, "user-1", "the-daily-brief");
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(readUnsubscribeToken(SECRET, token)).toEqual({ userId: "user-1", slug: "the-daily-brief" });
    expect(readUnsubscribeToken(`${SECRET}x`, token)).toBeUndefined();
  });

  it("refuses altered payloads, altered MACs and malformed tokens", () => {
    const token = unsubscribeToken(SECRET, "user-1", "the-daily-brief");
    const [, mac] = token.split(".");
    const other = (text: string) => `${Buffer.from(text).toString("base64url")}.${mac}`;
    for (const bad of [
      other("user-2\nthe-daily-brief"),
      other("user-1\nthe-chart-room"),
      other("user-1\nthe-daily-brief\nx"),
      `${token}A`,
      token.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
      "",
      ".",
      "x".repeat(600),
    ]) {
      expect(readUnsubscribeToken(SECRET, bad), bad.slice(0, 30)).toBeUndefined();
    }
  });

  it("puts the RFC 8058 headers and the link in the issue, and escapes HTML", () => {
    const newsletter = {
      slug: "the-daily-brief",
      name: "The Daily Brief",
      frequency: "Daily",
      description: "Ideas <daily>.",
      subscriberOnly: false,
    };
    const message = composeIssue({
      newsletter,
      content: templateIssue(newsletter, [{ title: "A & B", summary: "Why <b> matters.", url: "https://site.example/2026/01/a-and-b" }]),
      recipient: { userId: "user-1", email: "reader@example.org", firstName: "Ann" },
      siteUrl: "https://site.example",
      secret: SECRET,
    });
    const link = `https://site.example/newsletters/unsubscribe?token=${encodeURIComponent(unsubscribeToken(SECRET, "user-1", "the-daily-brief"))}`;
    expect(message.headers).toEqual({ "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(message.text).toContain(`Unsubscribe: ${link}`);
    expect(message.html).toContain("A &amp; B");
    expect(message.html).toContain("Why &lt;b&gt; matters.");
    expect(message.html).not.toContain("<daily>");
  });
});
