import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { chartData, chartSchema, chartSlugs, chartYears, parseChart, type ChartData } from "~/server/images/charts/data";
import { chartSvg } from "~/server/images/charts/render";
import { dejaVuFamily, rasterFontFiles, svgToPng, withDejaVuFamilies } from "~/server/images/raster";
import { splitFrontMatter } from "~/server/seed/content-source";
import { pngSize } from "~/tests/helpers/png";

// The visual-library charts: their data agrees with what their articles say, the drawing shows
// that data, and the PNG is drawn in the site's serif and sans faces on any machine.

const CONTENT = path.resolve("content");

function visualLibraryArticles(): string[] {
  return fs
    .readdirSync(path.join(CONTENT, "articles"))
    .filter((f) => f.endsWith(".md"))
    .filter((f) => splitFrontMatter(fs.readFileSync(path.join(CONTENT, "articles", f), "utf8")).fields.tier === "visual-library")
    .map((f) => f.slice(0, -".md".length))
    .sort();
}

const series = (chart: ChartData, name: RegExp) => {
  const found = chart.series.find((s) => name.test(s.name));
  if (!found) throw new Error(`no series ${name}`);
  return (year: number) => found.values[String(year)]!;
};

describe("chart data", () => {
  it("gives every visual-library article a chart, and no other article one", () => {
    const articles = visualLibraryArticles();
    expect(articles.length).toBeGreaterThan(0);
    expect(chartSlugs(CONTENT)).toEqual(articles);
    for (const slug of articles) expect(chartData(slug, CONTENT), slug).toBeDefined();
  });

  it("agrees with the figures the capex article states", () => {
    const chart = chartData("capex-is-drifting-from-growth-to-maintenance", CONTENT)!;
    expect(chartYears(chart)).toEqual(Array.from({ length: 15 }, (_, i) => 2010 + i));
    const maintenance = series(chart, /^Maintenance/);
    const growth = series(chart, /^Growth/);
    const ratio = series(chart, /depreciation/);
    expect(maintenance(2010)).toBe(52);
    expect(Math.round(maintenance(2015))).toBe(56);
    expect(maintenance(2020)).toBe(60);
    expect(maintenance(2024)).toBe(63);
    // Broadly flat from 2015 until the jump in 2020, and rising in each of the three steps.
    for (const year of [2016, 2017, 2018, 2019]) expect(Math.abs(maintenance(year) - 56)).toBeLessThan(1);
    for (const year of [2013, 2014, 2015, 2021, 2022, 2023, 2024]) expect(maintenance(year)).toBeGreaterThan(maintenance(year - 1));
    for (const year of chartYears(chart)) {
      expect(growth(year) + maintenance(year), String(year)).toBeCloseTo(100, 6);
      expect(ratio(year), String(year)).toBeGreaterThanOrEqual(1.25);
      expect(ratio(year), String(year)).toBeLessThanOrEqual(1.4);
    }
    expect(chart.series.find((s) => /depreciation/.test(s.name))).toMatchObject({ kind: "dotted-line", axis: "right" });
  });

  it("agrees with the figures the credit-stress article states", () => {
    const chart = chartData("small-firms-are-absorbing-more-credit-stress", CONTENT)!;
    expect(chartYears(chart)).toEqual([2021, 2022, 2023, 2024, 2025]);
    const small = series(chart, /^Small/);
    const medium = series(chart, /^Medium/);
    const larger = series(chart, /^Larger/);
    const rate = series(chart, /rate/i);
    for (const band of [small, medium, larger]) {
      expect(band(2021)).toBeGreaterThanOrEqual(13);
      expect(band(2021)).toBeLessThanOrEqual(15);
    }
    expect(larger(2023)).toBe(19);
    expect(Math.max(...chartYears(chart).map(larger))).toBe(19);
    expect(larger(2025)).toBe(16);
    expect([medium(2024), medium(2025)]).toEqual([22, 22]);
    for (const year of [2022, 2023, 2024, 2025]) expect(small(year)).toBeGreaterThan(small(year - 1));
    expect(small(2025)).toBe(31);
    expect(small(2025)).toBeGreaterThan(2 * small(2021));
    expect(rate(2021)).toBeLessThan(3);
    expect(rate(2023)).toBeGreaterThan(6.5);
    expect(rate(2023)).toBeLessThan(7);
    expect(rate(2025)).toBeLessThan(rate(2023));
  });

  // Each figure an article's text gives, as [series, year, value]: the chart must draw the same.
  const stated: Record<string, [RegExp, number, number][]> = {
    "burnout-is-rising-fastest-in-the-middle": [
      [/^Middle/, 2018, 28],
      [/^Individual/, 2018, 27],
      [/^Senior/, 2018, 22],
      [/^Middle/, 2021, 41],
      [/^Individual/, 2021, 36],
      [/^Senior/, 2021, 31],
      [/^Middle/, 2025, 47],
      [/^Individual/, 2025, 33],
      [/^Senior/, 2025, 25],
      [/^Direct/, 2018, 6.8],
      [/^Direct/, 2025, 10.6],
    ],
    "venture-funding-has-reset-exits-have-not": [
      [/funding/, 2014, 95],
      [/funding/, 2019, 175],
      [/funding/, 2020, 200],
      [/funding/, 2021, 390],
      [/funding/, 2022, 260],
      [/funding/, 2023, 165],
      [/funding/, 2024, 170],
      [/funding/, 2025, 185],
      [/IPOs/, 2021, 290],
      [/IPOs/, 2022, 45],
      [/IPOs/, 2023, 40],
      [/IPOs/, 2024, 55],
      [/IPOs/, 2025, 62],
    ],
    "paying-more-to-win-customers-who-stay-less": [
      [/^Acquisition/, 2016, 100],
      [/^Acquisition/, 2019, 126],
      [/^Acquisition/, 2022, 158],
      [/^Acquisition/, 2025, 192],
      [/^Still/, 2016, 71],
      [/^Still/, 2019, 68],
      [/^Still/, 2020, 70],
      [/^Still/, 2022, 63],
      [/^Still/, 2024, 60],
      [/^Still/, 2025, 59],
    ],
    "inventories-never-went-back-to-lean": [
      [/^Manufacturers/, 2012, 62],
      [/^Manufacturers/, 2019, 57],
      [/^Manufacturers/, 2020, 60],
      [/^Manufacturers/, 2022, 74],
      [/^Manufacturers/, 2025, 70],
      [/^Retailers/, 2012, 48],
      [/^Retailers/, 2019, 44],
      [/^Retailers/, 2020, 41],
      [/^Retailers/, 2022, 52],
      [/^Retailers/, 2025, 49],
    ],
    "each-new-medicine-costs-more-to-discover": [
      [/per approval/, 2005, 1.4],
      [/per approval/, 2024, 2.9],
      [/approvals$/, 2005, 14],
      [/approvals$/, 2018, 29],
      [/approvals$/, 2024, 25],
    ],
    "small-business-owners-are-heading-for-retirement": [
      [/^Owner aged/, 2010, 21],
      [/^Owner aged/, 2019, 30.5],
      [/^Owner aged/, 2025, 36],
      [/^Owner under/, 2010, 24],
      [/^Owner under/, 2025, 18],
      [/succession/, 2010, 31],
      [/succession/, 2025, 34],
    ],
  };

  it("agrees with the figures the other visual-library articles state", () => {
    for (const [slug, figures] of Object.entries(stated)) {
      const chart = chartData(slug, CONTENT)!;
      for (const [name, year, value] of figures) expect(series(chart, name)(year), `${slug}: ${name} ${year}`).toBe(value);
    }
    // Stated as shapes: an average, a peak, a plateau, a crossing and a steady rise.
    const venture = chartData("venture-funding-has-reset-exits-have-not", CONTENT)!;
    const ipos = [2014, 2015, 2016, 2017, 2018, 2019].map(series(venture, /IPOs/));
    expect(Math.round(ipos.reduce((a, b) => a + b) / ipos.length)).toBe(86);
    const medicine = chartData("each-new-medicine-costs-more-to-discover", CONTENT)!;
    const approvals = series(medicine, /approvals$/);
    expect(Math.max(...chartYears(medicine).map(approvals))).toBe(approvals(2018));
    for (let year = 2010; year <= 2018; year++) {
      expect(series(medicine, /per approval/)(year)).toBeGreaterThanOrEqual(1.8);
      expect(series(medicine, /per approval/)(year)).toBeLessThanOrEqual(2.2);
    }
    const owners = chartData("small-business-owners-are-heading-for-retirement", CONTENT)!;
    const [older, younger] = [series(owners, /^Owner aged/), series(owners, /^Owner under/)];
    expect(chartYears(owners).find((year) => older(year) > younger(year))).toBe(2013);
    for (let year = 2011; year <= 2025; year++) expect(older(year)).toBeGreaterThan(older(year - 1));
    const acquisition = chartData("paying-more-to-win-customers-who-stay-less", CONTENT)!;
    for (let year = 2017; year <= 2025; year++)
      expect(series(acquisition, /^Acquisition/)(year)).toBeGreaterThan(series(acquisition, /^Acquisition/)(year - 1));
  });

  const valid = (): unknown =>
    JSON.parse(fs.readFileSync(path.join(CONTENT, "charts/small-firms-are-absorbing-more-credit-stress.json"), "utf8"));

  it("refuses a chart with a year missing, a value off its axis, or a series on an axis it lacks", () => {
    expect(chartSchema.safeParse(valid()).success).toBe(true);
    const missingYear = valid() as ChartData;
    delete missingYear.series[0]!.values["2023"];
    const offAxis = valid() as ChartData;
    offAxis.series[0]!.values["2023"] = 55;
    const noAxis = valid() as ChartData;
    delete noAxis.axes.right;
    const ragged = valid() as ChartData;
    ragged.axes.left.step = 15;
    for (const [name, chart] of Object.entries({ missingYear, offAxis, noAxis, ragged }))
      expect(chartSchema.safeParse(chart).success, name).toBe(false);
    expect(() => parseChart(JSON.stringify(offAxis), "x.json")).toThrow(/^x\.json: series\.0\.values\.2023 outside its axis/);
  });

  it("has no chart for a name that is no article slug", () => {
    for (const slug of ["../articles/x", "Capex", "", "a/b"]) expect(chartData(slug, CONTENT), slug).toBeUndefined();
  });
});

describe("the drawn chart", () => {
  const chart = chartData("capex-is-drifting-from-growth-to-maintenance", CONTENT)!;
  const $ = cheerio.load(chartSvg(chart), { xml: true });
  const texts = $("text")
    .map((_, t) => $(t).text())
    .get();

  it("is an image with its title and a description that holds every value", () => {
    const svg = $("svg");
    expect(svg.attr("role")).toBe("img");
    expect(svg.attr("aria-labelledby")).toBe("chart-title chart-desc");
    expect($("svg > title#chart-title").text()).toBe(`${chart.title}: ${chart.subtitle}`);
    const desc = $("svg > desc#chart-desc").text();
    expect(desc).toContain(chart.description);
    expect(desc).toContain("Maintenance share (left axis, Share of capital spending): 2010 52.0%, 2011 52.4%");
    expect(desc).toContain("2024 1.38×.");
  });

  it("shows the title, subtitle, both axes' labels, the legend, the source and the site's name", () => {
    expect(texts).toContain(chart.title);
    expect(texts.join(" ")).toContain(chart.subtitle);
    expect(texts).toContain(chart.axes.left.label);
    expect(texts).toContain(chart.axes.right!.label);
    expect(texts).toContain(chart.years.label);
    expect(texts).toEqual(
      expect.arrayContaining(["Maintenance share", "Growth capital (the remainder)", "Capital spending ÷ depreciation (right scale)"]),
    );
    expect(texts.join(" ")).toContain("Source: Meridian Review analysis");
    expect(texts).toContain("Meridian Review");
    expect(texts).toEqual(expect.arrayContaining(["0%", "25%", "50%", "75%", "100%", "0.0×", "0.4×", "0.8×", "1.2×", "1.6×"]));
  });

  it("marks every year of every series at its value, higher values higher up", () => {
    for (const year of chartYears(chart)) expect(texts, String(year)).toContain(String(year));
    for (const s of chart.series) {
      const points = $(`g[data-series="${s.name}"] > circle`);
      expect(points.map((_, p) => $(p).find("title").text()).get(), s.name).toEqual(
        chartYears(chart).map((y) => `${y}: ${s.values[String(y)]!.toFixed(chart.axes[s.axis]!.decimals)}${chart.axes[s.axis]!.unit}`),
      );
      const ys = points.map((_, p) => Number($(p).attr("cy"))).get();
      const xs = points.map((_, p) => Number($(p).attr("cx"))).get();
      for (let i = 1; i < xs.length; i++) expect(xs[i]).toBeGreaterThan(xs[i - 1]!);
      const values = chartYears(chart).map((y) => s.values[String(y)]!);
      for (let i = 1; i < ys.length; i++)
        expect(Math.sign(ys[i - 1]! - ys[i]!)).toBe(Math.sign(Number((values[i]! - values[i - 1]!).toFixed(6))));
    }
  });

  it("writes each line's latest value at its end", () => {
    expect(texts).toEqual(expect.arrayContaining(["63%", "37%", "1.38×"]));
  });

  it("draws a bar a year for a bar series", () => {
    const bars: ChartData = {
      ...chart,
      series: [
        { name: "Orders", kind: "bars", axis: "left", values: Object.fromEntries(chartYears(chart).map((y, i) => [String(y), 20 + i])) },
      ],
      axes: { left: chart.axes.left },
    };
    const $bars = cheerio.load(chartSvg(bars), { xml: true });
    const rects = $bars('g[data-series="Orders"] > rect');
    expect(rects).toHaveLength(chartYears(chart).length);
    const heights = rects.map((_, r) => Number($bars(r).attr("height"))).get();
    expect(heights[heights.length - 1]! / heights[0]!).toBeCloseTo(34 / 20, 1);
  });

  it("escapes text from the data", () => {
    const hostile = { ...chart, title: `Rates <script>alert("x")</script> & more` };
    const svg = chartSvg(hostile);
    expect(svg).not.toContain("<script>");
    expect(cheerio.load(svg, { xml: true })("svg > title").text()).toContain(`Rates <script>alert("x")</script> & more`);
  });
});

describe("the PNG", () => {
  const sample = (family: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><rect width="100%" height="100%" fill="#fff"/><text x="10" y="44" font-size="36" font-family="${family}">Meridian Ag</text></svg>`;

  it("draws a serif family in DejaVu Serif and a sans family in DejaVu Sans, from the package's own font files", async () => {
    for (const file of rasterFontFiles()) expect(fs.existsSync(file), file).toBe(true);
    const draw = (family: string) => svgToPng(sample(family), { width: 400 });
    const [georgia, dejaVuSerif, dejaVuSans, helvetica] = await Promise.all([
      draw("Georgia, serif"),
      draw("DejaVu Serif"),
      draw("DejaVu Sans"),
      draw("Helvetica, Arial, sans-serif"),
    ]);
    expect(georgia.equals(dejaVuSerif)).toBe(true);
    expect(helvetica.equals(dejaVuSans)).toBe(true);
    expect(georgia.equals(helvetica)).toBe(false);
  });

  it("names each font-family list by the DejaVu family it stands for", () => {
    expect(dejaVuFamily("Georgia, serif")).toBe("DejaVu Serif");
    expect(dejaVuFamily(`"Times New Roman", Times, serif`)).toBe("DejaVu Serif");
    expect(dejaVuFamily("Helvetica, Arial, sans-serif")).toBe("DejaVu Sans");
    expect(dejaVuFamily("Menlo, monospace")).toBe("DejaVu Sans Mono");
    expect(withDejaVuFamilies(`<text font-family="Georgia, serif">a</text><text style="font-family: Arial, sans-serif">b</text>`)).toBe(
      `<text font-family="DejaVu Serif">a</text><text style="font-family: DejaVu Sans">b</text>`,
    );
  });

  it("is drawn at the width asked for, in proportion", async () => {
    const png = await svgToPng(chartSvg(chartData("small-firms-are-absorbing-more-credit-stress", CONTENT)!), { width: 2400 });
    expect(pngSize(png)).toEqual({ width: 2400, height: 1350 });
  });
});
