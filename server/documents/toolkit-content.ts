import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { config } from "~/server/config";

// The worksheets and slides a toolkit product is delivered as, read from
// content/toolkits/{slug}.json (see content/README.md) when a buyer first downloads one.
//
// A sheet is laid out the same way every time: its title in row 1, its description in row 2,
// the column headers in row 3 and the JSON's rows from row 4 on. A cell is a number, a text, an
// empty cell (null), or a formula: a text starting with "=", in which "{row}" stands for the
// cell's own row number.

const FIRST_DATA_ROW = 4;

const NUMBER_FORMATS = ["text", "integer", "number", "score", "signed", "percent", "signedPercent", "currency"] as const;
const numberFormat = z.enum(NUMBER_FORMATS);
export type NumberFormat = z.infer<typeof numberFormat>;

const text = z.string().trim().min(1);
const hexColour = z.string().regex(/^[0-9A-Fa-f]{6}$/);
const cell = z.union([z.string(), z.number().finite(), z.null()]);
export type Cell = z.infer<typeof cell>;

const validation = z.union([
  z.object({ list: z.array(text).min(1) }).strict(),
  z.object({ whole: z.tuple([z.number().int(), z.number().int()]) }).strict(),
  z.object({ decimal: z.tuple([z.number(), z.number()]) }).strict(),
]);
export type Validation = z.infer<typeof validation>;

const column = z.object({
  header: text,
  /** In Excel's units: the width of one "0" of the default font. */
  width: z.number().min(4).max(120),
  format: numberFormat.default("text"),
  wrap: z.boolean().default(false),
  /** What Excel accepts in this column's input cells. */
  validation: validation.optional(),
  /** A colour for the column's calculated cells, e.g. a bar drawn in characters. */
  ink: hexColour.optional(),
});

const row = z.union([
  z.null(),
  z.array(cell).transform((cells) => ({ cells, style: "plain" as const, format: undefined })),
  z.object({
    cells: z.array(cell).min(1),
    /** section: a band across the sheet; total: bold with a rule above; note: small italic text. */
    style: z.enum(["plain", "section", "total", "note"]).default("plain"),
    /** Overrides the columns' formats for this row's numbers. */
    format: numberFormat.optional(),
  }),
]);
export type Row = z.infer<typeof row>;

const sheet = z
  .object({
    /** Excel's limits: 31 characters, none of []:*?/\ */
    name: z.string().regex(/^[^[\]:*?/\\]{1,31}$/),
    title: text,
    description: text,
    tabColor: hexColour.optional(),
    /** Columns kept in view when scrolling sideways. */
    freezeColumns: z.number().int().min(0).max(4).default(0),
    columns: z.array(column).min(1).max(26),
    rows: z.array(row).min(1),
  })
  .superRefine((s, ctx) => {
    s.rows.forEach((r, i) => {
      if (r && r.cells.length > s.columns.length)
        ctx.addIssue({ code: "custom", path: ["rows", i], message: `has ${r.cells.length} cells for ${s.columns.length} columns` });
      r?.cells.forEach((c, j) => {
        if (typeof c === "string" && c.startsWith("=") && c.length < 2)
          ctx.addIssue({ code: "custom", path: ["rows", i, "cells", j], message: "an empty formula" });
      });
    });
  });
export type Sheet = z.infer<typeof sheet>;

const notes = z.string().trim().min(40);
const slide = z.discriminatedUnion("layout", [
  z.object({ layout: z.literal("title"), title: text, subtitle: text, notes }),
  z.object({ layout: z.literal("bullets"), title: text, bullets: z.array(text).min(2).max(7), notes }),
  z.object({
    layout: z.literal("steps"),
    title: text,
    intro: text.optional(),
    steps: z
      .array(z.object({ heading: text, text }))
      .min(2)
      .max(5),
    notes,
  }),
  z.object({
    layout: z.literal("matrix"),
    title: text,
    xAxis: z.object({ label: text, low: text, high: text }),
    yAxis: z.object({ label: text, low: text, high: text }),
    /** Top left, top right, bottom left, bottom right. */
    quadrants: z.array(z.object({ heading: text, text })).length(4),
    notes,
  }),
  z.object({
    layout: z.literal("table"),
    title: text,
    intro: text.optional(),
    /** Widths are relative: the table fills the slide's width. */
    columns: z
      .array(z.object({ header: text, width: z.number().positive() }))
      .min(2)
      .max(8),
    /** One cell per column. */
    rows: z.array(z.array(z.string())).min(1).max(8),
    notes,
  }),
]);
export type Slide = z.infer<typeof slide>;

const toolkitSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    workbook: z.object({ subject: text, sheets: z.array(sheet).min(2).max(12) }),
    deck: z.object({ subject: text, slides: z.array(slide).min(6).max(10) }),
  })
  .refine((t) => new Set(t.workbook.sheets.map((s) => s.name.toLowerCase())).size === t.workbook.sheets.length, "sheet names must differ")
  .refine((t) => t.deck.slides[0]?.layout === "title", "the deck opens with a title slide")
  .refine(
    (t) => t.deck.slides.every((s) => s.layout !== "table" || s.rows.every((r) => r.length === s.columns.length)),
    "every table row needs one cell per column",
  );
export type Toolkit = z.infer<typeof toolkitSchema>;

/** The spreadsheet row a sheet's row (counted from 0 in the JSON) lands on. */
export const sheetRow = (index: number) => FIRST_DATA_ROW + index;

const loaded = new Map<string, Promise<Toolkit>>();

async function read(file: string, slug: string): Promise<Toolkit> {
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`No toolkit content for "${slug}" at ${file}: ${(error as Error).message}`);
  }
  const parsed = toolkitSchema.safeParse(json);
  if (!parsed.success) throw new Error(`Toolkit content ${file} is not valid: ${parsed.error.message}`);
  if (parsed.data.slug !== slug) throw new Error(`Toolkit content ${file} names "${parsed.data.slug}", not "${slug}"`);
  return parsed.data;
}

/**
 * The content of the toolkit product `slug`, read once per process (a failed read is tried
 * again next time). Throws when the file is missing or invalid: a buyer should get an error,
 * never an empty workbook.
 */
export function loadToolkit(slug: string, dir = path.join(config().contentDir, "toolkits")): Promise<Toolkit> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) return Promise.reject(new Error(`Not a toolkit slug: ${JSON.stringify(slug)}`));
  const file = path.join(dir, `${slug}.json`);
  let toolkit = loaded.get(file);
  if (!toolkit) {
    toolkit = read(file, slug);
    loaded.set(file, toolkit);
    toolkit.catch(() => loaded.delete(file));
  }
  return toolkit;
}
