import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { scriptJson } from "~/app/lib/http/script-json";
import { blocksToHtml, blockText, bodyWordCount, linkTarget, parseBody } from "~/server/content/markdown";
import { composeIssue, templateIssue } from "~/server/newsletters/issue";
import { everywhere, HOSTILE, links, problems } from "~/tests/helpers/hostile-markdown";

// Markdown can never become script (issue 38, "Security"): whatever an article body holds, its
// HTML stays within the subset (tests/helpers/hostile-markdown.ts), and so do the texts around
// it: a title in JSON-LD, in a newsletter mail.

const render = (source: string) => blocksToHtml(parseBody(source), { quoteClass: "pull-quote" });

describe("hostile Markdown", () => {
  for (const [name, source] of HOSTILE) {
    it(`${name}: no element, attribute or href outside the subset`, () => {
      const html = render(everywhere(source));
      expect(problems(html, "pull-quote")).toEqual([]);
    });
  }

  it("keeps what is no link as the text it was written as, and the words it indexes are the words shown", () => {
    for (const [name, source] of HOSTILE.filter(([, s]) => !s.includes("\n"))) {
      const html = render(source);
      // An HTML parser drops a NUL byte (and no body holds one: the database never stores it).
      const shown = cheerio.load(html, null, false).text();
      expect(shown, name).toBe(parseBody(source).map(blockText).join("").replaceAll("\u0000", ""));
      if (links(html).length === 0) expect(shown, name).toBe(source.trim().replaceAll("\u0000", ""));
    }
  });

  it("writes entities as the characters typed, never as what they stand for", () => {
    const html = render("&lt;script&gt; &#106;avascript:");
    expect(html).toBe("<p>&amp;lt;script&amp;gt; &amp;#106;avascript:</p>");
    expect(cheerio.load(html, null, false).text()).toBe("&lt;script&gt; &#106;avascript:");
  });

  it("makes links to http(s) addresses, paths and fragments, and no other", () => {
    const html = render(
      "See [the study](https://example.org/a?b=1&c=2#d), [our guide](/topics/strategy?page=2), " +
        "[below](#notes), [plain](http://example.org) and [SHOUTED](HTTPS://EXAMPLE.ORG/X).",
    );
    expect(links(html)).toEqual([
      ["the study", "https://example.org/a?b=1&c=2#d"],
      ["our guide", "/topics/strategy?page=2"],
      ["below", "#notes"],
      ["plain", "http://example.org/"],
      ["SHOUTED", "https://example.org/X"],
    ]);
    expect(html).toContain('href="https://example.org/a?b=1&amp;c=2#d"');
  });

  it("leaves every hostile target without a link, and gives it as text", () => {
    for (const [name, source] of HOSTILE) {
      for (const [, href] of links(render(source))) {
        expect(
          ["/ok", "https://example.org/", "https://example.org/%E2%80%AEgnp.exe", "/path%22onmouseover=%22alert%281%29"],
          name,
        ).toContain(href);
      }
    }
    expect(render("[click](javascript:alert%281%29)")).toBe("<p>[click](javascript:alert%281%29)</p>");
    expect(render("[click](/..//evil.example)")).toBe("<p>[click](/..//evil.example)</p>");
  });

  it("decides each target by the one rule, as a browser's URL parser reads it", () => {
    const allowed: [string, string][] = [
      ["https://example.org", "https://example.org/"],
      ["http://example.org/a b", "http://example.org/a%20b"],
      ["/a/../b", "/b"],
      ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
      ["#", "#"],
      // As a browser reads it: the host is x.
      ["http:///x", "http://x/"],
      ["#part-2", "#part-2"],
      ["https://example.org/\u202Egnp.exe", "https://example.org/%E2%80%AEgnp.exe"],
    ];
    for (const [source, href] of allowed) expect(linkTarget(source), source).toBe(href);
    const refused = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "\tjavascript:alert(1)",
      "&#106;avascript:alert(1)",
      "vbscript:x",
      "data:text/html,<script>alert(1)</script>",
      "mailto:a@example.org",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/..//evil.example",
      "/.//evil.example",
      "/\t/evil.example",
      "https://user@evil.example",
      "https://[::1",
      "/\\[::",
      "evil.example",
      "relative/path",
      "",
    ];
    for (const source of refused) expect(linkTarget(source), JSON.stringify(source)).toBeNull();
  });

  it("counts and indexes a link's words, not its target", () => {
    const [block] = parseBody("Read [the study](https://example.org/x) and [this](javascript:x).");
    expect(blockText(block!)).toBe("Read the study and [this](javascript:x).");
  });
});

describe("huge hostile Markdown", () => {
  // Each must finish (a catastrophic backtrack would not, in any time a test waits) and stay within the subset.
  const HUGE: [string, string][] = [
    ["1 MB of [", "[".repeat(1_000_000)],
    ["1 MB of [[[[a]]]]", "[[[[a]]]](".repeat(100_000)],
    ["an open link's words without an end", `[${"a".repeat(1_000_000)}`],
    ["an open target without an end", `[a](${"b".repeat(1_000_000)}`],
    ["100,000 nested quotes on one line", ">".repeat(100_000) + " x"],
    ["100,000 lines of nested quotes", Array.from({ length: 100_000 }, (_, i) => ">".repeat((i % 50) + 1)).join("\n")],
    ["100,000 asterisks", "*".repeat(100_000)],
    ["100,000 list markers", "- ".repeat(100_000)],
    ["blank lines of spaces", `a\n${" ".repeat(500_000)}\n${" \n".repeat(250_000)}b`],
    ["100,000 links", "[a](/b)".repeat(100_000)],
    ["100,000 refused links", "[a](javascript:b)".repeat(100_000)],
  ];
  for (const [name, source] of HUGE) {
    it(`${name}: renders, within the subset`, () => {
      const html = render(source);
      expect(html.length).toBeGreaterThan(0);
      expect(problems(html, "pull-quote")).toEqual([]);
    });
  }
});

describe("hostile titles outside the body", () => {
  const TITLE = `</script><script>alert(1)</script> ]]> <!-- "x" & 'y' \u2028\u2029 \u202Eevil`;

  it("stay inside a JSON-LD script block and read back whole", () => {
    const page = `<head><script type="application/ld+json">${scriptJson({ headline: TITLE, about: [TITLE] })}</script></head>`;
    const $ = cheerio.load(page);
    expect($("script")).toHaveLength(1);
    expect(JSON.parse($("script").html()!)).toEqual({ headline: TITLE, about: [TITLE] });
    expect(scriptJson(TITLE)).not.toMatch(/<\/script|<!--/i);
  });

  it("are text in a newsletter issue's HTML", () => {
    const newsletter = { slug: "daily", name: TITLE, description: TITLE, frequency: "Daily", subscriberOnly: false };
    const mail = composeIssue({
      newsletter,
      content: {
        ...templateIssue(newsletter, [{ title: TITLE, summary: TITLE, url: "https://site.example/2025/06/x" }]),
        preheader: TITLE,
      },
      recipient: { userId: "1", email: "reader@example.org", firstName: TITLE },
      siteUrl: "https://site.example",
      secret: "secret",
    });
    const $ = cheerio.load(mail.html!, null, false);
    expect($("script, img, svg, iframe")).toHaveLength(0);
    expect($("h2 a").text()).toBe(TITLE);
    expect($("h2 a").attr("href")).toBe("https://site.example/2025/06/x");
    expect(
      $("*").filter((_, el) => Object.keys((el as unknown as { attribs: object }).attribs).some((a) => a.startsWith("on"))),
    ).toHaveLength(0);
  });

  it("keep an issue's introduction to the Markdown subset's links, with the site's paths made absolute for mail", () => {
    const newsletter = { slug: "daily", name: "Daily", description: "", frequency: "Daily", subscriberOnly: false };
    const intro = [
      `Read [the report](/2025/06/report) and [the source](https://example.org/x).`,
      `Not [a script](javascript:alert(1)), not [data](data:text/html,<script>alert(1)</script>), not <img src=x onerror=alert(1)>.`,
      `- [another host](//evil.example/x)`,
    ].join("\n\n");
    const mail = composeIssue({
      newsletter,
      content: { subject: "S", preheader: "", intro, articles: [] },
      recipient: { userId: "1", email: "reader@example.org", firstName: "Ann" },
      siteUrl: "https://site.example",
      secret: "secret",
    });
    const $ = cheerio.load(mail.html!);
    expect($("script, img, svg, iframe")).toHaveLength(0);
    // The introduction's two links, then the footer's unsubscribe and newsletters links.
    expect(
      $("a")
        .map((_, el) => $(el).attr("href"))
        .get(),
    ).toEqual([
      "https://site.example/2025/06/report",
      "https://example.org/x",
      expect.stringMatching(/^https:\/\/site\.example\/newsletters\/unsubscribe\?token=/),
      "https://site.example/email-newsletters",
    ]);
    expect(mail.text).toContain("Read the report (https://site.example/2025/06/report) and the source (https://example.org/x).");
    expect(mail.text).toContain("Not [a script](javascript:alert(1))");
    expect(mail.text).toContain("- [another host](//evil.example/x)");
  });
});

describe("a body's word count", () => {
  it("counts a link's words as the reader sees them, not its address; a refused link counts as typed", () => {
    expect(bodyWordCount("Read [the annual report](https://example.org/reports/2025-annual) before Monday.")).toBe(6);
    expect(bodyWordCount("Not [a link](javascript:alert(1)) here")).toBe(4);
  });
});
