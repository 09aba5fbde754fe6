import * as cheerio from "cheerio";

// Hostile Markdown for the article body's renderer (issue 38, "Security"), and what its HTML may
// hold: the subset's elements (p, h2, ul, li, blockquote with the site's class, and a with an
// href), no other attribute, and every href an http(s) address, a path on the site or a "#"
// fragment (content/README.md).

export const ALLOWED_ELEMENTS = new Set(["p", "h2", "ul", "li", "blockquote", "a"]);
export const ALLOWED_ATTRIBUTES: Record<string, string[]> = { a: ["href"], blockquote: ["class"] };
/** An href the subset may write: http(s) with a host, a path that is not another host, a fragment. */
export const SAFE_HREF = /^(https?:\/\/[^/\\\s]|\/(?![/\\])|#)/;

/** The source as one paragraph, a heading, a list item and a pull quote: every place inline text goes. */
export const everywhere = (text: string) => [text, `## ${text}`, `- ${text}`, `> ${text}`].join("\n\n");

type Node = { type: string; name?: string; attribs?: Record<string, string>; children?: Node[] };

/** What is wrong with rendered body HTML: nodes, elements, attributes and hrefs outside the subset (its pull quotes of `quoteClass`). */
export function problems(html: string, quoteClass: string): string[] {
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
      if (name === "class" && value !== quoteClass) found.push(`class ${value}`);
    }
    stack.push(...node.children!);
  }
  return found;
}

/** The links of rendered HTML, as [words, href]. */
export const links = (html: string) => {
  const $ = cheerio.load(html, null, false);
  return $("a")
    .map((_, a) => [[$(a).text(), $(a).attr("href")!]])
    .get() as [string, string][];
};

// Targets carry their payload without parentheses (alert%281%29), which would end the target
// early: the rule alone must stop them.
export const HOSTILE: [string, string][] = [
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
