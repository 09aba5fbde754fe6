import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { config } from "~/server/config";

// A visual-library article's chart as data: content/charts/{article-slug}.json (see
// content/README.md). The renderer (./render.ts) draws it; nothing here knows how.

const axisSchema = z
  .object({
    label: z.string().min(1),
    /** Written after each value: "%" gives "25%", "×" gives "1.2×". */
    unit: z.string().max(3),
    min: z.number(),
    max: z.number(),
    /** Between gridlines; (max − min) / step must be a whole number of steps. */
    step: z.number().positive(),
    /** Decimals a single value is written with (in the description and each point's label). */
    decimals: z.number().int().min(0).max(3),
  })
  .refine((a) => a.max > a.min, "an axis's max must be above its min")
  .refine((a) => {
    const steps = (a.max - a.min) / a.step;
    return Math.abs(steps - Math.round(steps)) < 1e-9 && steps >= 2 && steps <= 10;
  }, "an axis needs 2 to 10 whole steps from min to max");

export const SERIES_KINDS = ["line", "dotted-line", "area", "bars"] as const;

const seriesSchema = z.object({
  name: z.string().min(1),
  /** A solid line, a dotted line, a shaded area down to the axis's minimum, or a bar a year. */
  kind: z.enum(SERIES_KINDS),
  axis: z.enum(["left", "right"]),
  /** One value a year, keyed by the year. */
  values: z.record(z.string().regex(/^\d{4}$/), z.number()),
});

export const chartSchema = z
  .object({
    title: z.string().min(1),
    subtitle: z.string().min(1),
    /** What the chart shows, in a sentence or three: its alt text and its SVG description. */
    description: z.string().min(1),
    years: z.object({ label: z.string().min(1), from: z.number().int(), to: z.number().int() }),
    axes: z.object({ left: axisSchema, right: axisSchema.optional() }),
    series: z.array(seriesSchema).min(1),
    note: z.string().min(1).optional(),
    source: z.string().min(1),
  })
  .superRefine((chart, ctx) => {
    const { from, to } = chart.years;
    if (to <= from || to - from > 40) ctx.addIssue({ code: "custom", message: "years run forwards, over at most 41 years" });
    const expected = Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
    chart.series.forEach((series, i) => {
      const axis = chart.axes[series.axis];
      if (!axis) {
        ctx.addIssue({ code: "custom", path: ["series", i, "axis"], message: `no ${series.axis} axis` });
        return;
      }
      const years = Object.keys(series.values).sort();
      if (years.join() !== expected.join())
        ctx.addIssue({ code: "custom", path: ["series", i, "values"], message: `needs a value for each year ${from}–${to}` });
      for (const [year, value] of Object.entries(series.values))
        if (value < axis.min || value > axis.max)
          ctx.addIssue({ code: "custom", path: ["series", i, "values", year], message: `outside its axis (${axis.min} to ${axis.max})` });
    });
  });

export type ChartData = z.infer<typeof chartSchema>;
export type ChartAxis = z.infer<typeof axisSchema>;
export type ChartSeries = z.infer<typeof seriesSchema>;

/** The years a chart covers, in order. */
export const chartYears = (chart: ChartData): number[] =>
  Array.from({ length: chart.years.to - chart.years.from + 1 }, (_, i) => chart.years.from + i);

/** A value as the chart writes it, with its axis's unit. */
export function formatValue(value: number, axis: Pick<ChartAxis, "unit">, decimals: number): string {
  return `${value.toFixed(decimals)}${axis.unit}`;
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Parses and checks a chart file's text; the error names the file and what is wrong. */
export function parseChart(text: string, file: string): ChartData {
  const parsed = chartSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return parsed.data;
}

const charts = new Map<string, ChartData>();

/**
 * The chart of the article with this slug, read from the content folder (CONTENT_DIR) once per process; undefined
 * when it has none. A chart file that does not parse is an error, not a missing chart.
 */
export function chartData(slug: string, contentDir = config().contentDir): ChartData | undefined {
  if (!SLUG.test(slug) || slug.length > 120) return undefined;
  const key = `${contentDir}\n${slug}`;
  const kept = charts.get(key);
  if (kept) return kept;
  const file = path.join(contentDir, "charts", `${slug}.json`);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const chart = parseChart(text, file);
  charts.set(key, chart);
  return chart;
}

/** The slugs of every chart file in the content folder (for the content's own checks). */
export function chartSlugs(contentDir = config().contentDir): string[] {
  const dir = path.join(contentDir, "charts");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}
