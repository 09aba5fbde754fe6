// A toolkit product's PowerPoint deck (pptxgenjs), made from content/toolkits/{slug}.json and
// licensed to the buyer. pptxgenjs loads on a toolkit's first download, not at start.
import type PptxGenJS from "pptxgenjs";
import { loadToolkit, type Slide, type Toolkit } from "./toolkit-content";
import { ACCENT, BAND, byline, INK, MUTED, NAVY, RULE, SANS, SERIF, WASH, type ToolkitSource, type ToolkitText } from "./toolkit-theme";

// Slides: 16:9, 10 x 5.625 inches.

const W = 10;
const MARGIN = 0.5;
const INNER = W - 2 * MARGIN;
const FOOTER_Y = 5.22;

function footer(site: string, licence: string, onDark: boolean): PptxGenJS.SlideMasterProps["objects"] {
  const colour = onDark ? "D6DFEA" : MUTED;
  return [
    { line: { x: MARGIN, y: FOOTER_Y - 0.06, w: INNER, h: 0, line: { color: onDark ? "3D5A80" : RULE, width: 0.75 } } },
    {
      text: {
        text: site,
        options: {
          x: MARGIN,
          y: FOOTER_Y,
          w: 1.9,
          h: 0.28,
          fontFace: SERIF,
          fontSize: 9,
          bold: true,
          color: onDark ? "FFFFFF" : NAVY,
          margin: 0,
          valign: "middle",
        },
      },
    },
    {
      text: {
        text: licence,
        options: { x: 2.4, y: FOOTER_Y, w: 6.5, h: 0.28, fontFace: SANS, fontSize: 8, color: colour, margin: 0, valign: "middle" },
      },
    },
  ];
}

function slideTitle(slide: PptxGenJS.Slide, title: string): void {
  // One line: a long title steps down a size rather than wrapping into the rule below it.
  const fontSize = title.length > 52 ? 20 : title.length > 40 ? 22 : 26;
  slide.addText(title, {
    x: MARGIN,
    y: 0.28,
    w: INNER,
    h: 0.66,
    fontFace: SERIF,
    fontSize,
    bold: true,
    color: NAVY,
    margin: 0,
    valign: "bottom",
  });
  slide.addShape("rect", { x: MARGIN, y: 1.02, w: 0.8, h: 0.05, fill: { color: ACCENT }, line: { color: ACCENT, width: 0 } });
}

function addContent(pptx: PptxGenJS, s: Exclude<Slide, { layout: "title" }>): PptxGenJS.Slide {
  const slide = pptx.addSlide({ masterName: "CONTENT" });
  slideTitle(slide, s.title);
  let top = 1.25;
  if ((s.layout === "table" || s.layout === "steps") && s.intro) {
    slide.addText(s.intro, { x: MARGIN, y: top, w: INNER, h: 0.36, fontFace: SANS, fontSize: 13, color: MUTED, margin: 0 });
    top += 0.5;
  }
  switch (s.layout) {
    case "bullets":
      slide.addText(
        s.bullets.map((b) => ({ text: b, options: { bullet: { indent: 18 }, breakLine: true } })),
        {
          x: MARGIN,
          y: top + 0.05,
          w: INNER,
          h: FOOTER_Y - top - 0.3,
          fontFace: SANS,
          fontSize: 18,
          color: INK,
          valign: "top",
          paraSpaceAfter: 10,
          margin: 0,
        },
      );
      break;
    case "steps": {
      const gap = 0.2;
      const w = (INNER - gap * (s.steps.length - 1)) / s.steps.length;
      const h = Math.min(2.4, FOOTER_Y - top - 0.35);
      s.steps.forEach((step, i) => {
        const x = MARGIN + i * (w + gap);
        slide.addShape("rect", { x, y: top, w, h, fill: { color: WASH }, line: { color: WASH, width: 0 } });
        slide.addShape("rect", { x, y: top, w, h: 0.08, fill: { color: NAVY }, line: { color: NAVY, width: 0 } });
        slide.addText(
          [
            { text: step.heading, options: { fontFace: SERIF, fontSize: 16, bold: true, color: NAVY, breakLine: true } },
            { text: step.text, options: { fontFace: SANS, fontSize: 13, color: INK } },
          ],
          { x: x + 0.15, y: top + 0.25, w: w - 0.3, h: h - 0.4, valign: "top", paraSpaceAfter: 8, margin: 0 },
        );
      });
      break;
    }
    case "matrix": {
      const gridX = 2.25;
      const gridY = 1.72;
      const gap = 0.1;
      const qw = (W - MARGIN - gridX - gap) / 2;
      const qh = (FOOTER_Y - 0.3 - gridY - gap) / 2;
      const small = { fontFace: SANS, fontSize: 10, color: MUTED, margin: 0 } as const;
      const label = { fontFace: SANS, fontSize: 11, bold: true, color: NAVY, margin: 0 } as const;
      slide.addText(s.xAxis.label.toUpperCase(), {
        ...small,
        x: gridX,
        y: 1.14,
        w: 2 * qw + gap,
        h: 0.24,
        align: "center",
        charSpacing: 1,
      });
      slide.addText(s.xAxis.low, { ...label, x: gridX, y: 1.4, w: qw, h: 0.28, align: "center" });
      slide.addText(s.xAxis.high, { ...label, x: gridX + qw + gap, y: 1.4, w: qw, h: 0.28, align: "center" });
      // The y axis reads upwards, its name turned on its side beside the grid.
      const axisH = 2 * qh + gap;
      slide.addText(s.yAxis.label.toUpperCase(), {
        ...small,
        x: 0.55 - axisH / 2,
        y: gridY + axisH / 2 - 0.12,
        w: axisH,
        h: 0.24,
        align: "center",
        rotate: 270,
        charSpacing: 1,
      });
      slide.addText(s.yAxis.high, { ...label, x: 0.85, y: gridY, w: gridX - 0.95, h: qh, align: "right", valign: "middle" });
      slide.addText(s.yAxis.low, { ...label, x: 0.85, y: gridY + qh + gap, w: gridX - 0.95, h: qh, align: "right", valign: "middle" });
      s.quadrants.forEach((q, i) => {
        const x = gridX + (i % 2) * (qw + gap);
        const y = gridY + Math.floor(i / 2) * (qh + gap);
        slide.addShape("rect", {
          x,
          y,
          w: qw,
          h: qh,
          fill: { color: i === 0 ? NAVY : BAND },
          line: { color: i === 0 ? NAVY : BAND, width: 0 },
        });
        slide.addText(
          [
            { text: q.heading, options: { fontFace: SERIF, fontSize: 15, bold: true, color: i === 0 ? "FFFFFF" : NAVY, breakLine: true } },
            { text: q.text, options: { fontFace: SANS, fontSize: 11, color: i === 0 ? "FFFFFF" : INK } },
          ],
          { x: x + 0.15, y: y + 0.1, w: qw - 0.3, h: qh - 0.2, valign: "top", paraSpaceAfter: 4, margin: 0 },
        );
      });
      break;
    }
    case "table": {
      const total = s.columns.reduce((sum, c) => sum + c.width, 0);
      const colW = s.columns.map((c) => (c.width / total) * INNER);
      // A short table is set larger; figures line up on the right, under a right-aligned header.
      const chars = s.rows.flat().join("").length;
      const cellOptions: PptxGenJS.TableCellProps = {
        fontFace: SANS,
        fontSize: chars < 400 ? 14 : 11,
        color: INK,
        valign: "middle",
        margin: [3, 5, 3, 5],
      };
      const align = s.columns.map((_, j): PptxGenJS.HAlign =>
        j > 0 && s.rows.every((r) => /^[-+$\d.,%m ]+$/.test(r[j]!)) ? "right" : "left",
      );
      const rows: PptxGenJS.TableRow[] = [
        s.columns.map((c, j) => ({
          text: c.header,
          options: { ...cellOptions, bold: true, color: "FFFFFF", fill: { color: NAVY }, align: align[j] },
        })),
        ...s.rows.map((r, i) =>
          r.map((value, j) => ({ text: value, options: { ...cellOptions, fill: { color: i % 2 ? WASH : "FFFFFF" }, align: align[j] } })),
        ),
      ];
      slide.addTable(rows, { x: MARGIN, y: top, w: INNER, colW, border: { type: "solid", pt: 0.5, color: RULE }, autoPage: false });
      break;
    }
  }
  return slide;
}

/** The slide deck of a toolkit, its footer naming the site and the licence on every slide. */
export async function deckFile(toolkit: Toolkit, source: ToolkitSource, text: ToolkitText, licence: string): Promise<Buffer> {
  const { default: Pptx } = await import("pptxgenjs");
  const pptx = new Pptx();
  pptx.layout = "LAYOUT_16x9";
  pptx.title = source.title;
  pptx.subject = toolkit.deck.subject;
  pptx.author = text.siteName;
  pptx.company = text.siteName;
  pptx.revision = "1";
  pptx.theme = { headFontFace: SERIF, bodyFontFace: SANS };
  const number = { y: FOOTER_Y, w: 0.6, h: 0.28, fontFace: SANS, fontSize: 9, align: "right", valign: "middle", margin: 0 } as const;
  pptx.defineSlideMaster({
    title: "TITLE",
    background: { color: NAVY },
    objects: footer(text.siteName, licence, true),
    slideNumber: { ...number, x: W - MARGIN - 0.6, color: "FFFFFF" },
  });
  pptx.defineSlideMaster({
    title: "CONTENT",
    background: { color: "FFFFFF" },
    objects: footer(text.siteName, licence, false),
    slideNumber: { ...number, x: W - MARGIN - 0.6, color: MUTED },
  });

  for (const s of toolkit.deck.slides) {
    if (s.layout === "title") {
      const slide = pptx.addSlide({ masterName: "TITLE" });
      slide.addText(text.siteName.toUpperCase(), {
        x: MARGIN,
        y: 0.45,
        w: INNER,
        h: 0.3,
        fontFace: SANS,
        fontSize: 11,
        color: "D6DFEA",
        charSpacing: 3,
        margin: 0,
      });
      slide.addText(s.title, {
        x: MARGIN,
        y: 1.35,
        w: INNER,
        h: 1.2,
        fontFace: SERIF,
        fontSize: 38,
        bold: true,
        color: "FFFFFF",
        valign: "bottom",
        margin: 0,
      });
      slide.addShape("rect", { x: MARGIN, y: 2.72, w: 1.1, h: 0.06, fill: { color: ACCENT }, line: { color: ACCENT, width: 0 } });
      slide.addText(s.subtitle, {
        x: MARGIN,
        y: 2.95,
        w: INNER,
        h: 0.8,
        fontFace: SANS,
        fontSize: 18,
        color: "FFFFFF",
        valign: "top",
        margin: 0,
      });
      if (source.product.authors.length)
        slide.addText(byline(source.product.authors), {
          x: MARGIN,
          y: 4.1,
          w: INNER,
          h: 0.4,
          fontFace: SERIF,
          fontSize: 14,
          italic: true,
          color: "D6DFEA",
          margin: 0,
        });
      slide.addNotes(s.notes);
    } else {
      addContent(pptx, s).addNotes(s.notes);
    }
  }
  // "STREAM" is the output that honours compression: a Node Buffer, deflated.
  const out = await pptx.write({ outputType: "STREAM", compression: true });
  return Buffer.isBuffer(out) ? out : Buffer.from(out as ArrayBuffer);
}

export async function renderPptx(source: ToolkitSource, text: ToolkitText, licence: string): Promise<Buffer> {
  return deckFile(await loadToolkit(source.product.slug), source, text, licence);
}
