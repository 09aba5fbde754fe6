// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestFeed, podcastFeed } from "~/server/content/feeds";
import type { Database } from "~/server/db/connection";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// What editors will write into titles and summaries (issue 38, "Security"), read back by a
// strict XML parser from the feeds: text, never markup, and a feed that parses whatever the
// text holds (a control character pasted from a word processor must not break every reader's
// feed).

const SITE = "https://example.test";
const TITLE = `</script><script>alert(1)</script> ]]> <![CDATA[ x ]]> <!-- & "quotes" 'n' \u2028 \u202Eevil`;
/** Characters XML 1.0 cannot hold, even as references: the feed leaves them out. */
const UNWRITABLE = "\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF";

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

/** A strict XML parse (jsdom's, as a browser's): null when the text is not well-formed XML. */
function strictXml(xml: string): Document | null {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  return doc.getElementsByTagName("parsererror").length > 0 ? null : doc;
}

describe(`hostile titles and summaries in feeds (${dialectName})`, () => {
  it("come back as the same text from the latest feed, which stays well-formed XML", async () => {
    const newest = await db.selectFrom("article").select("id").orderBy("published", "desc").orderBy("id", "desc").executeTakeFirstOrThrow();
    await db
      .updateTable("article_record")
      .set({ title: TITLE + UNWRITABLE, summary: `${UNWRITABLE}<p onclick="x">${TITLE}</p>` })
      .where("id", "=", newest.id)
      .execute();
    const xml = await latestFeed(db, SITE, "Meridian Review");
    expect(xml).not.toContain("<![CDATA[");
    const doc = strictXml(xml);
    expect(doc, "the feed parses as XML").not.toBeNull();
    const item = doc!.getElementsByTagName("item")[0]!;
    expect(item.getElementsByTagName("script")).toHaveLength(0);
    expect(item.getElementsByTagName("title")[0]!.textContent).toBe(TITLE);
    expect(item.getElementsByTagName("description")[0]!.textContent).toBe(`<p onclick="x">${TITLE}</p>`);
  });

  it("leave a podcast feed well-formed, its episode's title as written", async () => {
    const series = await db.selectFrom("podcast_series").select(["id", "slug"]).orderBy("id").executeTakeFirstOrThrow();
    const episode = await db.selectFrom("podcast_episode").select("id").where("series_id", "=", series.id).executeTakeFirstOrThrow();
    await db
      .updateTable("podcast_episode")
      .set({ title: TITLE + UNWRITABLE, description: UNWRITABLE + TITLE })
      .where("id", "=", episode.id)
      .execute();
    const doc = strictXml((await podcastFeed(db, series.slug, SITE, { name: "M & R", email: "podcasts@example.org" }))!);
    expect(doc, "the feed parses as XML").not.toBeNull();
    const titles = [...doc!.getElementsByTagName("item")].map((i) => i.getElementsByTagName("title")[0]!.textContent);
    expect(titles).toContain(TITLE);
  });
});
