import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "~/server/text/escape";

// Whatever a title or name holds, a browser or an XML reader must read back that text, and
// never markup, from what escapeHtml writes.

const NASTY = [
  `Tom & Jerry's "Big" <Day>`,
  `</p><script>alert(1)</script>`,
  `&amp; is already an entity`,
  `x" onmouseover="alert(1)`,
  `it's '<b>'`,
  "Rocket 🚀 and café",
];

describe("escapeHtml", () => {
  it("replaces the five markup characters and leaves other text as it is", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#x27;");
    expect(escapeHtml("Rocket 🚀 and café, 50% off")).toBe("Rocket 🚀 and café, 50% off");
  });

  it("reads back as the same text in HTML element content and in attributes in either quotes", () => {
    for (const text of NASTY) {
      const $ = cheerio.load(
        `<p>${escapeHtml(text)}</p><a title="${escapeHtml(text)}"></a><b title='${escapeHtml(text)}'></b>`,
        null,
        false,
      );
      expect($("p").text()).toBe(text);
      expect($("a").attr("title")).toBe(text);
      expect($("b").attr("title")).toBe(text);
      expect($("script")).toHaveLength(0);
    }
  });

  it("leaves out the characters XML cannot hold, so that an SVG or EPUB file with them still parses", () => {
    expect(escapeHtml("a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFFi")).toBe("abcdefghi");
    expect(escapeHtml("tab\there\nline\r\u2028 \u202E\u00A0😀")).toBe("tab\there\nline\r\u2028 \u202E\u00A0😀");
  });

  it("reads back as the same text in XML, as SVG and EPUB files are", () => {
    for (const text of NASTY) {
      const $ = cheerio.load(`<svg xmlns="http://www.w3.org/2000/svg"><text id="${escapeHtml(text)}">${escapeHtml(text)}</text></svg>`, {
        xml: true,
      });
      expect($("text").text()).toBe(text);
      expect($("text").attr("id")).toBe(text);
    }
  });
});
