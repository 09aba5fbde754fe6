import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { scriptJson } from "~/app/lib/http/script-json";
import { blocksToHtml, blockText, linkTarget, parseBody } from "~/server/content/markdown";
import { composeIssue } from "~/server/newsletters/issue";

// Markdown can never become script (issue 38, "Security"): whatever an article body holds, its
// HTML has only the subset's elements (p, h2, ul, li, blockquote with the site's class, and a
// with an href), no other attribute, and every href is an http(s) address, a path on the site
// or a "#" fragment. The same goes for the texts around it: a title in JSON-LD, in a mail.

const ALLOWED_ELEMENTS = new Set(["p", "h2", "ul", "li", "blockquote", "a"]);
const ALLOWED_ATTRIBUTES: Record<string, string[]> = { a: ["href"], blockquote: ["class"] };
/** An href the subset may write: http(s) with a host, a path that is not another host, a fragment. */
const SAFE_HREF = /^(https?:\/\/[^/\\\s]|\/(?![/\\])|#)/;

/** The source as one paragraph, a heading, a list item and a pull quote: every place inline text goes. */
const everywhere = (text: string) => [text, `## ${text}`, `- ${text}`, `> ${text}`].join("\n\n");

const render = (source: string) => blocksToHtml(parseBody(source), { quoteClass: "pull-quote" });

type Node = { type: string; name?: string; attribs?: Record<string, string>; children?: Node[] };

/** What is wrong with rendered body HTML: nodes, elements, attributes and hrefs outside the subset. */
function problems(html: string): string[] {
  const found: string[] = [];
  // Iterative, for the huge inputs' hundreds of thousands of nodes.
  const stack = [...(cheerio.load(html, null, false).root()[0]!.children as unknown as Node[])];
  for (let node = stack.pop(); node; node = stack.pop()) {
    // Comments, processing instructions and CDATA are nodes too.
    if (node.type === "text") continue;
    if (node.type !== "tag") {
      found.push(`node ${node.type}`);
      continue;
    }
    if (!ALLOWED_ELEMENTS.has(node.name!)) found.push(`element <${node.name}>`);
    for (const [name, value] of Object.entries(node.attribs!)) {
      if (name.startsWith("on") || !(ALLOWED_ATTRIBUTES[node.name!] ?? []).includes(name)) found.push(`attribute ${name}`);
      if (name === "href" && !SAFE_HREF.test(value)) found.push(`href ${value}`);
      if (name === "class" && value !== "pull-quote") found.push(`class ${value}`);
    }
    stack.push(...node.children!);
  }
  return found;
}

/** The links of rendered HTML, as [words, href]. */
const links = (html: string) => {
  const $ = cheerio.load(html, null, false);
  return $("a")
    .map((_, a) => [[$(a).text(), $(a).attr("href")!]])
    .get() as [string, string][];
};

// Targets carry their payload without parentheses (alert%281%29), which would end the target
// early: the rule alone must stop them.
const HOSTILE: [string, string][] = [
  ["raw script", "<script>alert(1)</script>"],
  ["script split over lines", "<scr\nipt>alert(1)</scr\nipt>"],
  ["img onerror", "<img src=x onerror=alert(1)>"],
  ["svg onload", "<svg onload=alert(1)><circle r=1 /></svg>"],
  ["iframe", '<iframe src="javascript:alert(1)"></iframe>'],
  ["HTML comment", "<!-- <script>alert(1)</script> -->"],
  ["comment hiding a closing tag", "text --><script>alert(1)</script><!--"],
  ["CDATA and processing instruction", "<![CDATA[<script>alert(1)</script>]]><?xml x?>"],
  ["closing the paragraph", "</p><p onclick=alert(1)>x</p>"],
  ["closing the quote's class", '"><script>alert(1)</script>'],
  ["style", "<style>body{background:url(javascript:alert(1))}</style>"],
  ["form and button", '<form action="javascript:alert(1)"><button>go</button></form>'],
  ["javascript: link", "[click](javascript:alert%281%29)"],
  ["mixed-case scheme", "[click](JaVaScRiPt:alert%281%29)"],
  ["tab in the scheme", "[click](java\tscript:alert%281%29)"],
  ["line break in the scheme", "[click](java\nscript:alert%281%29)"],
  ["entity in the scheme", "[click](&#106;avascript:alert%281%29)"],
  ["hex entity in the scheme", "[click](&#x6A;avascript&#58;alert%281%29)"],
  ["leading space before the scheme", "[click]( javascript:alert%281%29)"],
  ["vbscript:", "[click](vbscript:msgbox%281%29)"],
  ["data: HTML", "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
  ["file:", "[click](file:///etc/passwd)"],
  ["mailto: (not in the subset)", "[mail](mailto:someone@example.org)"],
  ["protocol-relative", "[click](//evil.example/x)"],
  ["backslash host", "[click](/\\evil.example)"],
  ["two backslashes", "[click](\\\\evil.example)"],
  ["dot segments to a host", "[click](/..//evil.example)"],
  ["dot segments with a backslash", "[click](/./\\evil.example)"],
  ["http without a host", "[click](http:///)"],
  ["credentials before the host", "[click](https://user:pass@evil.example/)"],
  ["link title in double quotes", '[click](/path "title" onmouseover="alert(1)")'],
  ["link title in single quotes", "[click](/path 'x' onclick='alert(1)')"],
  ["quote in the target", '[click](/path"onmouseover="alert%281%29)'],
  ["angle bracket in the target", "[click](/path><script>alert(1)</script>)"],
  ["autolink to javascript:", "<javascript:alert(1)>"],
  ["autolink to a web address", "<https://evil.example/>"],
  ["reference-style link", "[click][x]\n\n[x]: javascript:alert(1)"],
  ["image", "![x](javascript:alert%281%29)"],
  ["image with onerror in the alt", '![" onerror="alert(1)](/x.png)'],
  ["image of a path", "![x](/ok.png)"],
  ["link inside link words", "[[inner](javascript:alert%281%29)](/ok)"],
  ["emphasis around a link", "**[x](/ok)** _[y](javascript:alert%281%29)_ *<b>*"],
  ["markup in link words", "[<img src=x onerror=alert(1)>](/ok)"],
  ["attribute break-out in link words", '["><script>alert(1)</script>](https://example.org/)'],
  ["entities stay text", "&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt; &#60;b&#62;"],
  ["NUL byte", "a\u0000<script>b"],
  ["line and paragraph separators", "a\u2028b\u2029<script>alert(1)</script>\u2028"],
  ["bidi controls", "[\u202Eclick\u202C](https://example.org/\u202Egnp.exe)"],
  ["bidi override in a scheme", "[x](\u202Ejavascript:alert%281%29)"],
  ["zero-width space in a scheme", "[x](java\u200Bscript:alert%281%29)"],
];

describe("hostile Markdown", () => {
  for (const [name, source] of HOSTILE) {
    it(`${name}: no element, attribute or href outside the subset`, () => {
      const html = render(everywhere(source));
      expect(problems(html)).toEqual([]);
    });
  }

  it("keeps what is no link as the text it was written as", () => {
    for (const [name, source] of HOSTILE.filter(([, s]) => !s.includes("\n"))) {
      const $ = cheerio.load(render(source), null, false);
      const hrefs = links(render(source)).map(([, href]) => href);
      // Without its links' targets, the text reads as the source did, however it was escaped.
      const withoutTargets = source.replace(/(?<!!)\[([^[\]\n]+)\]\(([^\s()]+)\)/g, (link, words: string, target: string) =>
        linkTarget(target) === null ? link : words,
      );
      // An HTML parser drops a NUL byte (and no body holds one: the database never stores it).
      expect($.text(), name).toBe(withoutTargets.trim().replaceAll("\u0000", ""));
      expect(
        hrefs.every((h) => SAFE_HREF.test(h)),
        name,
      ).toBe(true);
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
      expect(problems(html)).toEqual([]);
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
    const mail = composeIssue({
      newsletter: { slug: "daily", name: TITLE, description: TITLE, frequency: "Daily" } as Parameters<
        typeof composeIssue
      >[0]["newsletter"],
      recipient: { userId: "1", email: "reader@example.org", firstName: TITLE },
      articles: [{ title: TITLE, summary: TITLE, url: "https://site.example/2025/06/x" }],
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
});
