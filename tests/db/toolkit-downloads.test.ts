import crypto from "node:crypto";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachment } from "~/app/lib/store/downloads.server";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { renderDownloadFile, type FileText } from "~/server/documents/download-files";
import { downloadsForOrder, openDownload, type DownloadSource } from "~/server/store/downloads";
import { loadToolkit } from "~/server/documents/toolkit-content";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// A toolkit's spreadsheet and slides, bought and downloaded, then opened the way Excel and
// PowerPoint would: the workbook through exceljs, the deck as the ZIP of XML parts it is.

let db: Database;
let close: () => Promise<void>;
let pick: Awaited<ReturnType<typeof availabilities>>;
let buyer: User;

const PAID_AT = "2026-01-10T15:00:00.000Z";
const NOW = new Date("2026-02-01T00:00:00.000Z");
const TEXT: FileText = {
  published: "January 28, 2025",
  formatDate: (iso) => iso.slice(0, 10),
  paidOn: "January 10, 2026",
  siteUrl: "https://meridian.example",
  siteName: "Meridian Review",
  now: NOW,
};
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  pick = await availabilities(db);
  const user = await insertUser(db, {
    firstName: "Ines",
    lastName: "Marwick",
    email: `toolkit-${crypto.randomUUID()}@example.org`,
    password: "Harbour7!lantern",
    optIn: false,
  });
  if (!user) throw new Error("user not created");
  buyer = user;
});
afterAll(() => close());

/** The seed's availability of a toolkit in one format. */
function toolkitFormat(slugTitle: string, code: "XLS" | "PPT") {
  const row = pick.all.find((a) => a.title === slugTitle && a.code === code);
  if (!row) throw new Error(`no ${code} availability of ${slugTitle}`);
  return row;
}

/** A paid order of the given lines and what opening each of its downloads gives the buyer. */
async function buy(...availabilityIds: number[]) {
  const o = await insertOrder(db, {
    userId: buyer.id,
    email: buyer.email,
    status: "paid",
    createdAt: PAID_AT,
    paidAt: PAID_AT,
    lines: availabilityIds.map((availabilityId) => ({ availabilityId })),
  });
  const source = async (position: number): Promise<DownloadSource> => {
    const access = await openDownload(db, { orderId: o.id, position: String(position), userId: buyer.id, key: null }, NOW);
    if (access.status !== "ok") throw new Error(`expected a download, got ${access.status}`);
    return access.source;
  };
  return { ...o, source };
}

/** The workbook as Excel would read it. */
async function openWorkbook(body: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(body).buffer);
  return workbook;
}

const licence = (orderNumber: string) => `Licensed to ${buyer.email}, order ${orderNumber}, January 10, 2026`;

/** The text runs of a DrawingML part, entities decoded. */
function texts(xml: string): string[] {
  return [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) =>
    m[1]!
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&"),
  );
}

const column = (letters: string) => [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);

/** Every cell a formula reads: single cells and both corners of each range, with their sheet. */
function references(formula: string, ownSheet: string): { sheet: string; row: number; col: number; text: string }[] {
  const withoutStrings = formula.replace(/"[^"]*"/g, '""');
  const ref =
    /(?<![A-Za-z0-9_$.'!])(?:'([^']+)'!|([A-Za-z][A-Za-z0-9_]*)!)?\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?(?![A-Za-z0-9_(])/g;
  return [...withoutStrings.matchAll(ref)].flatMap((m) => {
    const sheet = m[1] ?? m[2] ?? ownSheet;
    const corners = [[m[3]!, m[4]!]];
    if (m[5]) corners.push([m[5], m[6]!]);
    return corners.map(([c, r]) => ({ sheet, row: Number(r), col: column(c!), text: m[0] }));
  });
}

describe("toolkit downloads", () => {
  it("names the toolkit formats on the order page: an Excel workbook and PowerPoint", async () => {
    const sheet = toolkitFormat("Scenario Planning Toolkit", "XLS");
    const slides = toolkitFormat("Scenario Planning Toolkit", "PPT");
    const o = await buy(sheet.id, slides.id);
    expect((await downloadsForOrder(db, o.id, NOW)).map((d) => [d.title, d.format])).toEqual([
      ["Scenario Planning Toolkit", "Excel workbook"],
      ["Scenario Planning Toolkit", "PowerPoint"],
    ]);
  });

  it("delivers the scenario planning spreadsheet as a real .xlsx workbook with working formulas, licensed to the buyer", async () => {
    const o = await buy(toolkitFormat("Scenario Planning Toolkit", "XLS").id);
    const file = await renderDownloadFile(await o.source(1), TEXT);
    const response = attachment(new Uint8Array(file.body), file.contentType, file.filename);
    expect(response.headers.get("content-type")).toBe(XLSX);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="scenario-planning-toolkit.xlsx"');

    const workbook = await openWorkbook(file.body);
    expect(workbook.worksheets.map((w) => w.name)).toEqual([
      "Instructions",
      "Driving forces",
      "Scenarios",
      "Assumptions",
      "Projections",
      "Stress test",
      "Summary",
    ]);
    expect([workbook.title, workbook.creator, workbook.company]).toEqual([
      "Scenario Planning Toolkit",
      "Meridian Review",
      "Meridian Review",
    ]);
    expect(workbook.created.toISOString()).toBe(NOW.toISOString());

    // The licence is written on the first sheet and in every sheet's printed footer.
    const instructions = workbook.getWorksheet("Instructions")!;
    const written: string[] = [];
    instructions.eachRow((row) => row.eachCell((cell) => written.push(String(cell.value))));
    expect(written.some((t) => t.startsWith(licence(o.number)))).toBe(true);
    for (const sheet of workbook.worksheets) expect(sheet.headerFooter.oddFooter).toContain(licence(o.number));

    // Headers stay in view; a year's revenue is a formula over the assumptions, not a number.
    const projections = workbook.getWorksheet("Projections")!;
    expect(projections.views[0]).toMatchObject({ state: "frozen", ySplit: 3 });
    expect(projections.getCell("A3").value).toBe("$000");
    expect(projections.getCell("A5").value).toBe("Revenue");
    expect(projections.getCell("C5").formula).toBe("B5*(1+Assumptions!$C$9)");
    expect(projections.getCell("C5").numFmt).toContain('"$"#,##0');
    const assumptions = workbook.getWorksheet("Assumptions")!;
    expect([assumptions.getCell("A9").value, assumptions.getCell("C9").value, assumptions.getCell("C9").numFmt]).toEqual([
      "Revenue growth",
      0.05,
      "0.0%_)",
    ]);
    // The summary's scenario names follow the assumptions' headers.
    expect(workbook.getWorksheet("Summary")!.getCell("A5").formula).toBe("Assumptions!D3");

    // A score must be a whole number from 1 to 5, and the priority is calculated from it.
    const forces = workbook.getWorksheet("Driving forces")!;
    expect(forces.getCell("C4").dataValidation).toMatchObject({ type: "whole", operator: "between", formulae: [1, 5] });
    expect(forces.getCell("E4").formula).toBe("C4*D4");
  });

  it("delivers the R&D portfolio model with weighted scoring formulas and a portfolio balance", async () => {
    const o = await buy(toolkitFormat("R&D Portfolio Review Kit", "XLS").id);
    const file = await renderDownloadFile(await o.source(1), TEXT);
    expect([file.contentType, file.filename]).toEqual([XLSX, "rd-portfolio-review-kit.xlsx"]);
    const workbook = await openWorkbook(file.body);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["Instructions", "Criteria", "Scoring", "Portfolio balance", "Stage gates"]);
    const scoring = workbook.getWorksheet("Scoring")!;
    expect(scoring.getCell("I4").formula).toBe("ROUND(D4*Criteria!$B$4+E4*Criteria!$B$5+(6-F4)*Criteria!$B$6+(6-G4)*Criteria!$B$7,2)");
    expect(scoring.getCell("B4").dataValidation).toMatchObject({ type: "list", formulae: ['"Incremental,Adjacent,Transformational"'] });
    const criteria = workbook.getWorksheet("Criteria")!;
    expect(criteria.getCell("B8").formula).toBe("SUM(B4:B7)");
    expect([4, 5, 6, 7].reduce((sum, r) => sum + Number(criteria.getCell(`B${r}`).value), 0)).toBeCloseTo(1);
    expect(workbook.getWorksheet("Portfolio balance")!.getCell("C4").formula).toBe("SUMIF(Scoring!$B$4:$B$15,A4,Scoring!$H$4:$H$15)");
  });

  it("writes no formula that reads an empty cell or a missing sheet", async () => {
    for (const title of ["Scenario Planning Toolkit", "R&D Portfolio Review Kit"]) {
      const o = await buy(toolkitFormat(title, "XLS").id);
      const workbook = await openWorkbook((await renderDownloadFile(await o.source(1), TEXT)).body);
      let formulas = 0;
      for (const sheet of workbook.worksheets) {
        sheet.eachRow((row) =>
          row.eachCell((cell) => {
            if (!cell.formula) return;
            formulas += 1;
            expect(cell.formula, `${sheet.name}!${cell.address}`).not.toContain("{row}");
            for (const ref of references(cell.formula, sheet.name)) {
              const target = workbook.getWorksheet(ref.sheet);
              expect(target, `${sheet.name}!${cell.address} reads ${ref.text}`).toBeDefined();
              const value = target!.getRow(ref.row).getCell(ref.col).value;
              expect(value ?? null, `${sheet.name}!${cell.address} reads ${ref.text}`).not.toBeNull();
            }
          }),
        );
      }
      expect(formulas).toBeGreaterThan(50);
    }
  });

  it("delivers the slides as a real 16:9 .pptx: title slide, speaker notes, and the licence in every slide's footer", async () => {
    const o = await buy(toolkitFormat("Scenario Planning Toolkit", "PPT").id);
    const file = await renderDownloadFile(await o.source(1), TEXT);
    const response = attachment(new Uint8Array(file.body), file.contentType, file.filename);
    expect(response.headers.get("content-type")).toBe(PPTX);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="scenario-planning-toolkit.pptx"');

    const deck = await JSZip.loadAsync(file.body);
    const part = async (name: string) => {
      const entry = deck.file(name);
      if (!entry) throw new Error(`the deck has no ${name}`);
      return entry.async("string");
    };
    expect(await part("ppt/presentation.xml")).toContain('<p:sldSz cx="9144000" cy="5143500"/>');
    const core = await part("docProps/core.xml");
    expect(core).toContain("<dc:title>Scenario Planning Toolkit</dc:title>");
    expect(core).toContain("<dc:creator>Meridian Review</dc:creator>");

    const slides = Object.keys(deck.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    const content = (await loadToolkit("scenario-planning-toolkit")).deck.slides;
    expect(slides).toHaveLength(content.length);
    expect(content.length).toBeGreaterThanOrEqual(6);
    expect(texts(await part("ppt/slides/slide1.xml"))).toEqual(
      expect.arrayContaining(["Scenario Planning Toolkit", "Oluwaseun Hartley and Fiona Castellane"]),
    );
    expect(texts(await part("ppt/slides/slide2.xml"))).toContain("Agenda");
    const notes = texts(await part("ppt/notesSlides/notesSlide1.xml")).join("");
    expect(notes).toContain("Open by naming the decision the exercise will inform");

    for (let n = 1; n <= slides.length; n++) {
      const slide = await part(`ppt/slides/slide${n}.xml`);
      expect(slide, `slide ${n} numbers itself`).toMatch(/<a:fld [^>]*type="slidenum"/);
      const layout = /Target="\.\.\/slideLayouts\/(slideLayout\d+\.xml)"/.exec(await part(`ppt/slides/_rels/slide${n}.xml.rels`))![1];
      const footer = texts(await part(`ppt/slideLayouts/${layout}`));
      expect(footer, `slide ${n}'s footer`).toEqual(expect.arrayContaining(["Meridian Review", licence(o.number)]));
    }
  });

  it("has a workbook and a deck for every spreadsheet and slide product in the catalogue", async () => {
    const offers = pick.all.filter((a) => a.code === "XLS" || a.code === "PPT");
    expect(offers.length).toBeGreaterThanOrEqual(4);
    const o = await buy(...offers.map((a) => a.id));
    for (const [i, offer] of offers.entries()) {
      const file = await renderDownloadFile(await o.source(i + 1), TEXT);
      expect(file.contentType).toBe(offer.code === "XLS" ? XLSX : PPTX);
      // Both are ZIP packages of Office XML parts.
      expect(file.body.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
    }
  });

  it("fails loudly, rather than sending an empty file, for a toolkit whose content is missing", async () => {
    const o = await buy(toolkitFormat("Scenario Planning Toolkit", "XLS").id);
    const source = await o.source(1);
    const missing = { ...source, product: { ...source.product, slug: "no-such-toolkit" } };
    await expect(renderDownloadFile(missing, TEXT)).rejects.toThrow(/No toolkit content for "no-such-toolkit"/);
  });
});
