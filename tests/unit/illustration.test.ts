import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { issueCover, videoPoster } from "~/server/images/art";
import { articleIllustration, subjectOfTitle } from "~/server/images/illustration";
import { monogramOf } from "~/shared/monogram";

// An article's drawn picture says something about it (issue 41): its subject's palette and
// motif, its content type's composition. These read the SVG as a browser would get it.

const drawn = (key: string, subject: string, contentType: string) =>
  cheerio.load(articleIllustration(key, { subject, contentType }), { xml: true });
const ground = ($: cheerio.CheerioAPI) => $("svg > rect").first().attr("fill");

describe("an article's drawn picture", () => {
  it("takes its subject's colours and motif: gears for operations, a globe for international business, people for leadership", () => {
    const operations = drawn("a", "Operations", "Article");
    const world = drawn("a", "International Business", "Article");
    const people = drawn("a", "Leadership & Managing People", "Article");
    expect(new Set([ground(operations), ground(world), ground(people)]).size).toBe(3);
    // A gear is a disc with teeth turned around it; a globe is a disc crossed by meridians.
    expect(operations("rect[transform^=rotate]").length).toBeGreaterThanOrEqual(12);
    expect(world("ellipse").length).toBeGreaterThanOrEqual(3);
    expect(people("path").length).toBeGreaterThanOrEqual(10);
    expect(world("rect[transform^=rotate]")).toHaveLength(0);
  });

  it("composes by content type: a chart for a data visual, a framed portrait for an interview, a case file for a case study", () => {
    const chart = drawn("b", "Strategy", "Data Visual");
    expect(chart("polyline")).toHaveLength(1);
    expect(chart("rect").length).toBeGreaterThanOrEqual(8);
    const interview = drawn("b", "Strategy", "Interview");
    expect(interview("clipPath ellipse")).toHaveLength(1);
    expect(interview("polyline")).toHaveLength(0);
    const caseStudy = drawn("b", "Strategy", "Case Study");
    // The folder, then the sheet the motif (a route to a target) is drawn on.
    expect(caseStudy("path").first().attr("d")).toMatch(/^M\d+ \d+ h\d+ l30 30/);
    expect(caseStudy("circle").length).toBeGreaterThanOrEqual(3);
    expect(ground(chart)).toBe(ground(interview));
  });

  it("is the same for the same article on every start, and differs between two articles of one subject and type", () => {
    expect(articleIllustration("one", { subject: "Technology", contentType: "Article" })).toBe(
      articleIllustration("one", { subject: "Technology", contentType: "Article" }),
    );
    expect(articleIllustration("one", { subject: "Technology", contentType: "Article" })).not.toBe(
      articleIllustration("two", { subject: "Technology", contentType: "Article" }),
    );
  });

  it("draws something for an unknown subject or an address that names no article", () => {
    for (const svg of [
      articleIllustration("no-such-article"),
      articleIllustration("x", { subject: "Astrology", contentType: "Horoscope" }),
    ]) {
      const $ = cheerio.load(svg, { xml: true });
      expect($("svg").attr("viewBox")).toBe("0 0 1200 675");
      expect($("svg > *").length).toBeGreaterThan(3);
    }
  });
});

describe("covers and title slides", () => {
  it("gives a magazine cover the picture its cover story's words point to, with the cover line at the foot", () => {
    expect(subjectOfTitle("Electronic Brains Come to the Office")).toBe("Technology");
    expect(subjectOfTitle("Selling to the Suburbs")).toBe("Sales & Marketing");
    expect(subjectOfTitle("The Quiet Quarter")).toBeUndefined();
    const cover = cheerio.load(issueCover({ code: "9801", title: "Supply Chains Under Stress", monthLabel: "January", year: 1998 }), {
      xml: true,
    });
    // Gears for operations, and the title's last line at the foot of the 800-high cover.
    expect(cover("rect[transform^=rotate]").length).toBeGreaterThanOrEqual(12);
    expect(Number(cover("text").last().attr("y"))).toBeGreaterThan(700);
    const other = cheerio.load(issueCover({ code: "9801", title: "Labor Peace at What Price?", monthLabel: "January", year: 1998 }), {
      xml: true,
    });
    expect(ground(other)).not.toBe(ground(cover));
  });

  it("puts a video's subject behind its title slide", () => {
    const poster = (subject: string) => cheerio.load(videoPoster({ slug: "s", title: "A Title", topic: subject, subject }), { xml: true });
    expect(ground(poster("Operations"))).toBe(ground(drawn("x", "Operations", "Article")));
    expect(ground(poster("Innovation"))).not.toBe(ground(poster("Operations")));
  });
});

describe("an author's monogram", () => {
  it("is their first and last initials, the same colour wherever it is drawn", () => {
    expect(monogramOf("Priyanka Raghunathan").initials).toBe("PR");
    expect(monogramOf("Mary-Kate O'Neill").initials).toBe("MO");
    expect(monogramOf("Ósk van der Berg").initials).toBe("ÓB");
    expect(monogramOf("Plato").initials).toBe("P");
    expect(monogramOf("Priyanka Raghunathan").colour).toBe(monogramOf("Priyanka Raghunathan").colour);
    expect(monogramOf("Priyanka Raghunathan").colour).toMatch(/^#[0-9a-f]{6}$/);
  });
});
