import { describe, expect, it } from "vitest";
import { archiveCalendar, issueCode } from "~/server/content/archive-calendar";
import { isIssueCode } from "~/shared/issue-fields";
import { midpointIndex, parseBody } from "~/server/content/markdown";
import { topicHeadlineSegment, topicKey, topicSlug } from "~/shared/slugs";
import { withReferral } from "~/server/content/streams";
import { REFERRAL_TOPICS_AND_HOME } from "~/shared/referrals";
import { seedDate, splitFrontMatter } from "~/server/seed/content-source";

describe("topic slugs", () => {
  it("lowercases, turns & into and, and spaces into hyphens", () => {
    expect(topicSlug("Leadership & Managing People")).toBe("leadership-and-managing-people");
    expect(topicSlug("R&D")).toBe("randd");
    expect(topicSlug("Strategy")).toBe("strategy");
  });

  it("maps a headline link segment back to the same topic", () => {
    const segment = topicHeadlineSegment("Leadership & Managing People");
    expect(segment).toBe("leadership-&-managing-people");
    expect(topicKey(segment)).toBe(topicKey("Leadership & Managing People"));
    expect(topicKey("economics-and-society")).toBe(topicKey("Economics & Society"));
  });
});

describe("magazine archive calendar", () => {
  const slots = archiveCalendar();

  it("runs from 1956 to 2025", () => {
    expect(slots[0]).toMatchObject({ year: 1956, code: "5601", monthLabel: "January–February" });
    expect(slots.at(-1)).toMatchObject({ year: 2025, code: "BR2511", monthLabel: "November–December" });
  });

  it("changes frequency: bi-monthly, then monthly, then bi-monthly again", () => {
    const perYear = (y: number) => slots.filter((s) => s.year === y).length;
    expect(perYear(1965)).toBe(6);
    expect(perYear(2005)).toBe(10);
    expect(perYear(2022)).toBe(6);
  });

  it("leaves out issues that were never published", () => {
    expect(slots.some((s) => s.code === "7403")).toBe(false);
    expect(slots.filter((s) => s.year === 1974)).toHaveLength(5);
  });

  it("uses BR codes for recent issues and four-digit numbers for older ones", () => {
    expect(issueCode(2025, 1)).toBe("BR2501");
    expect(issueCode(1987, 7)).toBe("8707");
    expect(new Set(slots.map((s) => s.code)).size).toBe(slots.length);
    expect(isIssueCode("BR2501") && isIssueCode("5601")).toBe(true);
    expect(isIssueCode("BR25") || isIssueCode("../x") || isIssueCode("56011")).toBe(false);
  });
});

describe("article body", () => {
  const body = "Intro paragraph one.\n\n## A heading\n\n- first\n- second\n\n> A pull quote\n\nLast paragraph here with more words in it.";

  it("parses paragraphs, headings, lists and pull quotes", () => {
    expect(parseBody(body).map((b) => b.type)).toEqual(["paragraph", "heading", "list", "quote", "paragraph"]);
  });

  it("places the promo where about half of the words have been read", () => {
    const blocks = parseBody(["one two three four", "five six seven eight", "nine ten eleven twelve", "a b c d"].join("\n\n"));
    expect(midpointIndex(blocks)).toBe(2);
  });
});

describe("front matter", () => {
  it("splits on the first colon only, so titles may contain colons", () => {
    const { fields, body } = splitFrontMatter("---\ntitle: Part one: the start\nsubDek:\n---\nBody text");
    expect(fields).toEqual({ title: "Part one: the start" });
    expect(body).toBe("Body text");
  });

  it("rejects a file without front matter", () => {
    expect(() => splitFrontMatter("just text")).toThrow(/front matter/);
  });
});

describe("store dates in the seed", () => {
  it("keeps a written day, and counts days after seeding from the seed's UTC day", () => {
    const lateEvening = new Date("2026-11-30T23:30:00-05:00");
    expect(seedDate("2027-02-09", lateEvening)).toBe("2027-02-09");
    expect(seedDate({ daysAfterSeeding: 365 }, lateEvening)).toBe("2027-12-01");
    expect(seedDate({ daysAfterSeeding: 1 }, new Date("2028-02-28T12:00:00Z"))).toBe("2028-02-29");
  });
});

describe("referral codes", () => {
  it("adds the stream's referral code to product links only", () => {
    expect(withReferral("/product/the-book/1001", REFERRAL_TOPICS_AND_HOME)).toBe("/product/the-book/1001?referral=03069");
    expect(withReferral("/product/the-book/1001?format=PDF", "02749")).toBe("/product/the-book/1001?format=PDF&referral=02749");
    expect(withReferral("/2025/01/an-article", REFERRAL_TOPICS_AND_HOME)).toBe("/2025/01/an-article");
    expect(withReferral("/product/x/1", null)).toBe("/product/x/1");
  });
});
