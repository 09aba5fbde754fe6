import crypto from "node:crypto";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { renderDownloadFile, type FileText } from "~/server/documents/download-files";
import { downloadsForOrder, openDownload, type DownloadSource } from "~/server/store/downloads";
import { createSandboxProvider } from "~/server/payments/sandbox";
import { runPreorders } from "~/server/store/preorders";
import { fileFormatOf } from "~/server/documents/file-formats";
import { parseBody } from "~/server/content/markdown";
import { config } from "~/server/config";
import { loadSeedContent } from "~/server/seed/content-source";
import { pdfText, readPdf } from "~/tests/helpers/pdf-reader";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
let pick: Awaited<ReturnType<typeof availabilities>>;
let buyer: User;
let stranger: User;
const content = loadSeedContent(config().contentDir);

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  pick = await availabilities(db);
  buyer = await reader();
  stranger = await reader();
});
afterAll(() => close());

async function reader(): Promise<User> {
  const user = await insertUser(db, {
    firstName: "Tomasz",
    lastName: "Okafor",
    email: `dl-${crypto.randomUUID()}@example.org`,
    password: "Lantern5!quay",
    optIn: false,
  });
  if (!user) throw new Error("user not created");
  return user;
}

const PAID_AT = "2026-01-10T15:00:00.000Z";
const SOON = new Date("2026-02-01T00:00:00.000Z");

async function order(
  status: "paid" | "pending_payment" | "cancelled",
  userId: string | null,
  lines: Parameters<typeof insertOrder>[1]["lines"],
) {
  return insertOrder(db, {
    userId,
    email: userId === buyer.id ? buyer.email : "guest@example.org",
    status,
    createdAt: PAID_AT,
    paidAt: PAID_AT,
    lines,
  });
}

const open = (orderId: string, position: number | string, who: { userId?: string | null; key?: string | null }, now = SOON) =>
  openDownload(db, { orderId, position: String(position), userId: who.userId ?? null, key: who.key ?? null }, now);

/** The entries of a stored ZIP archive, read through its central directory. */
function unzip(archive: Buffer): { name: string; method: number; data: Buffer }[] {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    expect(archive.readUInt32LE(at)).toBe(0x02014b50);
    const method = archive.readUInt16LE(at + 10);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    expect(archive.readUInt32LE(local)).toBe(0x04034b50);
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    entries.push({ name, method, data: archive.subarray(dataAt, dataAt + size) });
    at += 46 + nameLength;
  }
  return entries;
}

const TEXT: FileText = {
  published: "March 04, 2025",
  formatDate: (iso) => `on ${iso.slice(0, 10)}`,
  paidOn: "January 10, 2026",
  siteUrl: "https://meridian.example",
  siteName: "Meridian Review",
  now: SOON,
};

async function source(
  orderId: string,
  position: number,
  who: { userId?: string | null; key?: string | null } = { userId: buyer.id },
): Promise<DownloadSource> {
  const access = await open(orderId, position, who);
  if (access.status !== "ok") throw new Error(`expected a download, got ${access.status}`);
  return access.source;
}

describe("order downloads", () => {
  it("lists a paid order's digital lines and permission licences, not its shipped lines or bundles", async () => {
    const o = await order("paid", buyer.id, [
      { availabilityId: pick.hardcover.id },
      { availabilityId: pick.kindle.id },
      { availabilityId: pick.bundle.id },
      { availabilityId: pick.html.id },
      { availabilityId: pick.withPermissions.id, kind: "perm", quantity: 25 },
    ]);
    expect(await downloadsForOrder(db, o.id, SOON)).toEqual([
      {
        position: 2,
        title: pick.kindle.title,
        format: "EPUB",
        href: `/download/order/${o.id}/2`,
        expiresAt: null,
        expired: false,
        refunded: false,
      },
      // The seed's HTML edition is a case study's: it carries the six-month end.
      {
        position: 4,
        title: pick.html.title,
        format: "HTML",
        href: `/download/order/${o.id}/4`,
        expiresAt: "2026-07-10T15:00:00.000Z",
        expired: false,
        refunded: false,
      },
      {
        position: 5,
        title: `Copyright permissions licence: ${pick.withPermissions.title}`,
        format: "PDF",
        href: `/download/order/${o.id}/5`,
        expiresAt: null,
        expired: false,
        refunded: false,
      },
    ]);
    // A guest's links carry the order's key.
    expect((await downloadsForOrder(db, o.id, SOON, o.accessToken))[0]!.href).toBe(`/download/order/${o.id}/2?key=${o.accessToken}`);
  });

  it("lets the signed-in buyer and a guest with the order's key download, and nobody else", async () => {
    const mine = await order("paid", buyer.id, [{ availabilityId: pick.kindle.id }]);
    const guests = await order("paid", null, [{ availabilityId: pick.kindle.id }]);
    expect((await open(mine.id, 1, { userId: buyer.id })).status).toBe("ok");
    expect((await open(guests.id, 1, { key: guests.accessToken })).status).toBe("ok");

    expect(await open(mine.id, 1, { userId: stranger.id })).toEqual({ status: "not-found" });
    expect(await open(mine.id, 1, {})).toEqual({ status: "not-found" });
    expect(await open(guests.id, 1, {})).toEqual({ status: "not-found" });
    expect(await open(guests.id, 1, { userId: stranger.id })).toEqual({ status: "not-found" });
    expect(await open(guests.id, 1, { key: mine.accessToken })).toEqual({ status: "not-found" });
    expect(await open(guests.id, 1, { key: `${guests.accessToken}x` })).toEqual({ status: "not-found" });
    expect(await open(`ord_${"A".repeat(22)}`, 1, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open("../../etc/passwd", 1, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open(mine.id, 2, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open(mine.id, "1e3", { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open(mine.id, "99999999999", { userId: buyer.id })).toEqual({ status: "not-found" });
  });

  it("offers nothing from an unpaid or cancelled order, nor a shipped line", async () => {
    const unpaid = await order("pending_payment", buyer.id, [{ availabilityId: pick.kindle.id }]);
    const cancelled = await order("cancelled", buyer.id, [{ availabilityId: pick.kindle.id }]);
    const shipped = await order("paid", buyer.id, [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.bundle.id }]);
    expect(await open(unpaid.id, 1, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open(cancelled.id, 1, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open(shipped.id, 1, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await open(shipped.id, 2, { userId: buyer.id })).toEqual({ status: "not-found" });
    expect(await downloadsForOrder(db, unpaid.id, SOON)).toEqual([]);
    expect(await downloadsForOrder(db, cancelled.id, SOON)).toEqual([]);
    expect(await downloadsForOrder(db, shipped.id, SOON)).toEqual([]);
  });

  it("holds back a pre-ordered line until the scheduled job releases it on its date", async () => {
    const ebook = pick.all.find((a) => a.status === "F" && a.code === "KND")!;
    const { available_date } = await db
      .selectFrom("product_availability")
      .select("available_date")
      .where("id", "=", ebook.id)
      .executeTakeFirstOrThrow();
    const o = await order("paid", buyer.id, [{ availabilityId: ebook.id }]);
    const dayBefore = new Date(new Date(`${available_date!}T00:00:00Z`).getTime() - 86_400_000);
    const dayAfter = new Date(new Date(`${available_date!}T00:00:00Z`).getTime() + 86_400_000);
    const provider = createSandboxProvider(db, { siteUrl: "https://meridian.test", webhookSecret: "whsec_test" });
    const mail = {
      mailer: { send: async () => ({ messageId: "<1@test>" }) },
      siteUrl: "https://meridian.test",
      publisher: { name: "Meridian Review", addressLines: [], taxId: null },
    };
    expect(await runPreorders(db, provider, mail, dayBefore)).toMatchObject({ released: 0 });
    expect(await open(o.id, 1, { userId: buyer.id }, dayAfter)).toEqual({ status: "not-found" });
    expect(await runPreorders(db, provider, mail, dayAfter)).toMatchObject({ released: 1 });
    expect((await open(o.id, 1, { userId: buyer.id }, dayAfter)).status).toBe("ok");
  });

  it("ends a case study's access six months after purchase, and only the case study's", async () => {
    const o = await order("paid", buyer.id, [{ availabilityId: pick.caseStudy.id }, { availabilityId: pick.kindle.id }]);
    const lastDay = new Date("2026-07-10T14:59:59.000Z");
    const after = new Date("2026-07-10T15:00:00.000Z");
    expect((await open(o.id, 1, { userId: buyer.id }, lastDay)).status).toBe("ok");
    expect(await open(o.id, 1, { userId: buyer.id }, after)).toEqual({
      status: "expired",
      title: pick.caseStudy.title,
      expiresAt: "2026-07-10T15:00:00.000Z",
      orderId: o.id,
    });
    expect((await open(o.id, 2, { userId: buyer.id }, after)).status).toBe("ok");
    // Someone else still learns nothing.
    expect(await open(o.id, 1, { userId: stranger.id }, after)).toEqual({ status: "not-found" });
    expect((await downloadsForOrder(db, o.id, lastDay)).map((d) => [d.position, d.expiresAt, d.expired])).toEqual([
      [1, "2026-07-10T15:00:00.000Z", false],
      [2, null, false],
    ]);
    expect((await downloadsForOrder(db, o.id, after))[0]!.expired).toBe(true);
  });
});

describe("downloaded files", () => {
  it("makes a PDF for PDF codes, licensed to the buyer", async () => {
    const o = await order("paid", buyer.id, [{ availabilityId: pick.pdfBook.id }]);
    const file = await renderDownloadFile(await source(o.id, 1), TEXT);
    expect(file.contentType).toBe("application/pdf");
    expect(file.filename).toMatch(/^[a-z0-9-]+\.pdf$/);
    expect(file.body.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
    expect(file.body.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
    expect(pdfText((await readPdf(file.body)).pages)).toContain(`Licensed to ${buyer.email}, order ${o.number}`);
  });

  it("makes a licence PDF for copyright permissions, naming the copies", async () => {
    const o = await order("paid", buyer.id, [{ availabilityId: pick.withPermissions.id, kind: "perm", quantity: 25 }]);
    const file = await renderDownloadFile(await source(o.id, 1), TEXT);
    expect(file.contentType).toBe("application/pdf");
    expect(file.filename).toMatch(/-permissions-licence\.pdf$/);
    const text = pdfText((await readPdf(file.body)).pages);
    expect(text).toContain("Permission granted");
    expect(text).toContain("Copies: 25");
  });

  it("makes an HTML page for HTM, with the catalogue's text escaped", async () => {
    const o = await order("paid", null, [{ availabilityId: pick.html.id }]);
    const file = await renderDownloadFile(await source(o.id, 1, { key: o.accessToken }), TEXT);
    expect(file.contentType).toBe("text/html; charset=utf-8");
    expect(file.filename).toMatch(/^[a-z0-9-]+\.html$/);
    const $ = cheerio.load(file.body.toString("utf8"));
    expect($("html").attr("lang")).toBe("en");
    expect($("h1").text()).toBe(pick.html.title);
    expect($("script")).toHaveLength(0);
  });

  it("makes an EPUB for the ebook codes: a ZIP led by an uncompressed mimetype, with a package naming its files", async () => {
    for (const ebook of [pick.kindle, pick.epub]) {
      const o = await order("paid", buyer.id, [{ availabilityId: ebook.id }]);
      const file = await renderDownloadFile(await source(o.id, 1), TEXT);
      expect(file.contentType).toBe("application/epub+zip");
      expect(file.filename).toMatch(/^[a-z0-9-]+\.epub$/);
      const entries = unzip(file.body);
      expect(entries[0]).toMatchObject({ name: "mimetype", method: 0 });
      expect(file.body.subarray(30, 38).toString()).toBe("mimetype");
      expect(entries[0]!.data.toString()).toBe("application/epub+zip");
      const byName = new Map(entries.map((e) => [e.name, e.data.toString("utf8")]));
      const container = cheerio.load(byName.get("META-INF/container.xml")!, { xml: true });
      const opfPath = container("rootfile").attr("full-path")!;
      const opf = cheerio.load(byName.get(opfPath)!, { xml: true });
      expect(opf("dc\\:title").text()).toBe(ebook.title);
      const dir = opfPath.slice(0, opfPath.lastIndexOf("/") + 1);
      for (const href of opf("manifest item")
        .map((_, el) => opf(el).attr("href"))
        .get())
        expect(byName.has(dir + href), href).toBe(true);
      const first = opf("spine itemref").first().attr("idref");
      const titlePage = cheerio.load(byName.get(dir + opf(`manifest item[id="${first}"]`).attr("href"))!, { xml: true });
      expect(titlePage("h1").text()).toBe(ebook.title);
    }
  });

  it("serves a ZIP code as an archive holding the PDF", async () => {
    const o = await order("paid", buyer.id, [{ availabilityId: pick.pdfBook.id }]);
    const pdf = await source(o.id, 1);
    const archive = await renderDownloadFile({ ...pdf, code: "ZIP", file: fileFormatOf("item", "ZIP") }, TEXT);
    expect(archive.contentType).toBe("application/zip");
    const [inside] = unzip(archive.body);
    expect(inside!.name).toMatch(/\.pdf$/);
    expect(inside!.data.subarray(0, 5).toString()).toBe("%PDF-");
  });
});

/** The seed's text of a product, as content/books/{slug}.md gives it. */
function seedSections(slug: string) {
  const text = content.productTexts.find((t) => t.slug === slug);
  if (!text) throw new Error(`no seed text for ${slug}`);
  return text.sections;
}

/** The first sentence of a section's first paragraph (or list item): text a reader would find in the file. */
function openingSentence(body: string): string {
  const first = parseBody(body)[0]!;
  return (first.type === "list" ? first.items[0]! : first.text).split(/(?<=[.?!])\s/)[0]!;
}

/** A sentence's words, so a match does not depend on where the PDF breaks lines. */
const words = (text: string) => text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').split(/\s+/).join(" ");

async function availabilityOf(slug: string, code: string) {
  const row = await db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select(["a.id", "p.title"])
    .where("p.slug", "=", slug)
    .where("a.code", "=", code)
    .orderBy("a.id")
    .executeTakeFirstOrThrow();
  return row;
}

describe("what a download holds", () => {
  it("gives a book's PDF a title page, a contents page with each chapter's page, and every chapter's text", async () => {
    const book = await availabilityOf("the-patient-ledger", "PDF");
    const o = await order("paid", buyer.id, [{ availabilityId: book.id }]);
    const pdf = await readPdf((await renderDownloadFile(await source(o.id, 1), TEXT)).body);
    const sections = seedSections("the-patient-ledger");
    expect(sections.length).toBeGreaterThanOrEqual(3);

    expect(pdfText([pdf.pages[0]!])).toContain("The Patient Ledger");
    const contents = pdf.pages[1]!;
    expect(contents[0]!.text).toBe("Contents");
    for (const section of sections) {
      const entry = contents.findIndex((l) => l.text === section.title);
      expect(entry, section.title).toBeGreaterThan(0);
      // The page number printed beside the entry is the page the chapter starts on.
      const number = Number(contents.find((l, i) => i > entry && /^\d+$/.test(l.text))!.text);
      const page = pdf.pages[number - 1]!;
      expect(pdfText([page]), section.title).toContain(section.title);
      expect(words(pdfText(pdf.pages.slice(number - 1)))).toContain(words(openingSentence(section.body)));
    }
  });

  it("gives a book's EPUB a chapter file per section, in order, each listed in the navigation", async () => {
    const book = await availabilityOf("the-patient-ledger", "KND");
    const o = await order("paid", buyer.id, [{ availabilityId: book.id }]);
    const entries = unzip((await renderDownloadFile(await source(o.id, 1), TEXT)).body);
    const byName = new Map(entries.map((e) => [e.name, e.data.toString("utf8")]));
    const opf = cheerio.load(byName.get("OEBPS/content.opf")!, { xml: true });
    const nav = cheerio.load(byName.get("OEBPS/nav.xhtml")!, { xml: true });
    const spine = opf("spine itemref")
      .map((_, el) => opf(el).attr("idref"))
      .get()
      .map((id) => `OEBPS/${opf(`manifest item[id="${id}"]`).attr("href")}`);
    const sections = seedSections("the-patient-ledger");
    expect(spine).toHaveLength(sections.length + 1);
    sections.forEach((section, i) => {
      const chapter = cheerio.load(byName.get(spine[i + 1]!)!, { xml: true });
      expect(chapter("h1").text()).toBe(section.title);
      expect(chapter.text()).toContain(openingSentence(section.body));
      expect(nav(`a[href="${spine[i + 1]!.slice("OEBPS/".length)}"]`).text()).toBe(section.title);
    });
  });

  it("gives a magazine issue's PDF its contents and every article it holds, with their authors", async () => {
    const issue = await availabilityOf("meridian-review-march-april-2026", "PDF");
    const o = await order("paid", buyer.id, [{ availabilityId: issue.id }]);
    const pdf = await readPdf((await renderDownloadFile(await source(o.id, 1), TEXT)).body);
    const slugs = content.store.products.find((p) => p.slug === "meridian-review-march-april-2026")!.articles!;
    expect(slugs.length).toBeGreaterThanOrEqual(3);
    const contents = pdfText([pdf.pages[1]!]);
    const all = words(pdfText(pdf.pages));
    for (const slug of slugs) {
      const article = content.articles.find((a) => a.slug === slug)!;
      expect(contents).toContain(article.title);
      const names = await db.selectFrom("author").select("name").where("slug", "in", article.authors).execute();
      for (const { name } of names) expect(contents).toContain(name);
      expect(all).toContain(words(openingSentence(article.body)));
      expect(all).toContain(`on ${article.published}`);
    }
  });

  it("gives a case study's PDF and HTML edition its sections as headings, from the case's own text", async () => {
    const pdfEdition = await availabilityOf("corvell-foods-the-private-label-dilemma", "PDF");
    const htmlEdition = await availabilityOf("corvell-foods-the-private-label-dilemma", "HTM");
    const o = await order("paid", buyer.id, [{ availabilityId: pdfEdition.id }, { availabilityId: htmlEdition.id }]);
    const sections = seedSections("corvell-foods-the-private-label-dilemma");
    const pdf = words(pdfText((await readPdf((await renderDownloadFile(await source(o.id, 1), TEXT)).body)).pages));
    const $ = cheerio.load((await renderDownloadFile(await source(o.id, 2), TEXT)).body.toString("utf8"));
    expect($("h1").text()).toBe(htmlEdition.title);
    for (const section of sections) {
      expect(pdf).toContain(words(openingSentence(section.body)));
      expect($("h2").filter((_, el) => $(el).text() === section.title)).toHaveLength(1);
    }
  });

  it("seeds a text for every book, case study and reprint, and the articles of every magazine issue", async () => {
    const products = await db.selectFrom("product").select(["id", "slug", "product_type"]).execute();
    for (const p of products) {
      const sections = await db.selectFrom("product_section").select("title").where("product_id", "=", p.id).execute();
      const articles = await db.selectFrom("product_article").select("article_id").where("product_id", "=", p.id).execute();
      if (["Book", "Case Study", "Article Reprint"].includes(p.product_type)) expect(sections.length, p.slug).toBeGreaterThanOrEqual(3);
      if (p.product_type === "Magazine Issue") expect(articles.length, p.slug).toBeGreaterThanOrEqual(3);
    }
  });
});
