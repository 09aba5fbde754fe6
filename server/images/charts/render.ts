import { CHART_SIZE } from "~/shared/art-sizes";
import { escapeHtml } from "~/server/text/escape";
import { chartYears, formatValue, type ChartAxis, type ChartData, type ChartSeries } from "./data";

// A chart drawn from its data as the magazine prints them: title, subtitle and legend over the
// plot, gridlines and ticks on one or two value axes, the years along the bottom, each line's
// latest value at its end, and the note, source and site's name at the foot. The same families
// as the rest of the site's art (server/images/art.ts); the PNG maps them to DejaVu (server/images/raster.ts).

const SERIF = "Georgia, serif";
const SANS = "Helvetica, Arial, sans-serif";

const INK = "#1a1a1a";
/** 7:1 on white. */
const MUTED = "#595959";
const GRID = "#e2ded7";
const ACCENT = "#a1191f";

interface Look {
  stroke: string;
  fill: string;
  /** Text in the series' colour (an axis it alone uses, its latest value): 4.5:1 or more on white. */
  ink: string;
}

/** Lines, dotted lines and bars, in the order they come: the first is the chart's story. */
const LINE_LOOKS: Look[] = [
  { stroke: ACCENT, fill: ACCENT, ink: ACCENT },
  { stroke: "#0b4f8a", fill: "#0b4f8a", ink: "#0b4f8a" },
  { stroke: "#6b6b6b", fill: "#6b6b6b", ink: "#4f4f4f" },
  { stroke: "#1d6b2f", fill: "#1d6b2f", ink: "#1d6b2f" },
  { stroke: "#8a4b08", fill: "#8a4b08", ink: "#8a4b08" },
];
/** Shaded areas sit behind the lines, so they are pale, with a darker edge. */
const AREA_LOOKS: Look[] = [
  { stroke: "#a8987a", fill: "#e8e0d1", ink: "#6b5a3c" },
  { stroke: "#7f97ad", fill: "#d5dfe8", ink: "#3f5a73" },
];

const MARGIN = 48;
const TITLE_SIZE = 36;
const SUBTITLE_SIZE = 20;
const LEGEND_SIZE = 17;
const AXIS_SIZE = 16;
const FOOT_SIZE = 14;

/**
 * Width of a text in DejaVu Sans, the widest face it is drawn in (browsers use Helvetica or
 * Arial, which are narrower): enough to wrap lines and lay out the legend without overlaps.
 */
export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const c of text) {
    if (" .,:;'|!ijlItf()[]".includes(c)) em += 0.34;
    else if ("mwMW%—".includes(c)) em += 0.92;
    else if (/[0-9]/.test(c)) em += 0.64;
    else if (/[A-Z]/.test(c)) em += 0.7;
    else em += 0.6;
  }
  return em * size * (bold ? 1.1 : 1);
}

function wrap(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && textWidth(`${last} ${word}`, size, bold) <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const n = (value: number) => String(Math.round(value * 10) / 10);

function text(x: number, y: number, content: string, attrs: string): string {
  return `<text x="${n(x)}" y="${n(y)}" ${attrs}>${escapeHtml(content)}</text>`;
}

/** A value without the zeros its decimals would add: 63.0 → "63%", 1.38 → "1.38×". */
function shortValue(value: number, axis: ChartAxis): string {
  return `${Number(value.toFixed(axis.decimals))}${axis.unit}`;
}

function ticks(axis: ChartAxis): number[] {
  const count = Math.round((axis.max - axis.min) / axis.step);
  return Array.from({ length: count + 1 }, (_, i) => Number((axis.min + i * axis.step).toFixed(6)));
}

/** The decimals a tick needs, from its axis's step (0.4 → 1). */
function tickDecimals(axis: ChartAxis): number {
  const [, decimals = ""] = String(axis.step).split(".");
  return Math.min(decimals.length, 3);
}

const tickLabel = (value: number, axis: ChartAxis) => formatValue(value, axis, tickDecimals(axis));

/** Each series with its colours: lines and bars from one palette in turn, areas from another. */
function looks(series: ChartSeries[]): Look[] {
  let line = 0;
  let area = 0;
  return series.map((s) => (s.kind === "area" ? AREA_LOOKS[area++ % AREA_LOOKS.length]! : LINE_LOOKS[line++ % LINE_LOOKS.length]!));
}

function swatch(kind: ChartSeries["kind"], look: Look, x: number, y: number): string {
  const mid = y - 5;
  switch (kind) {
    case "line":
      return `<line x1="${n(x)}" y1="${n(mid)}" x2="${n(x + 28)}" y2="${n(mid)}" stroke="${look.stroke}" stroke-width="3" stroke-linecap="round"/>`;
    case "dotted-line":
      return `<line x1="${n(x + 2)}" y1="${n(mid)}" x2="${n(x + 28)}" y2="${n(mid)}" stroke="${look.stroke}" stroke-width="3.5" stroke-linecap="round" stroke-dasharray="0.1 6.5"/>`;
    case "area":
      return `<rect x="${n(x)}" y="${n(mid - 7)}" width="28" height="14" fill="${look.fill}" stroke="${look.stroke}" stroke-width="1"/>`;
    case "bars":
      return `<rect x="${n(x + 7)}" y="${n(mid - 8)}" width="14" height="16" fill="${look.fill}"/>`;
  }
}

/** The series as a screen reader's description lists them: name, axis and every value. */
function dataDescription(chart: ChartData): string {
  const years = chartYears(chart);
  return chart.series
    .map((s) => {
      const axis = chart.axes[s.axis]!;
      const values = years.map((y) => `${y} ${formatValue(s.values[String(y)]!, axis, axis.decimals)}`).join(", ");
      return `${s.name}${chart.axes.right ? ` (${s.axis} axis, ${axis.label})` : ""}: ${values}.`;
    })
    .join(" ");
}

/** The chart as a standalone SVG document, drawn at CHART_SIZE. */
export function chartSvg(chart: ChartData): string {
  const { width: W, height: H } = CHART_SIZE;
  const years = chartYears(chart);
  const seriesLooks = looks(chart.series);
  const { left, right } = chart.axes;
  const out: string[] = [];

  // Head: a rule in the site's red, the title, the subtitle and the legend.
  out.push(`<rect x="${MARGIN}" y="24" width="44" height="5" fill="${ACCENT}"/>`);
  let y = 29 + TITLE_SIZE * 1.15;
  wrap(chart.title, W - 2 * MARGIN, TITLE_SIZE, true)
    .slice(0, 2)
    .forEach((line, i) => {
      if (i > 0) y += TITLE_SIZE * 1.15;
      out.push(text(MARGIN, y, line, `font-family="${SERIF}" font-size="${TITLE_SIZE}" font-weight="700" fill="${INK}"`));
    });
  y += SUBTITLE_SIZE * 1.6;
  wrap(chart.subtitle, W - 2 * MARGIN, SUBTITLE_SIZE)
    .slice(0, 3)
    .forEach((line, i) => {
      if (i > 0) y += SUBTITLE_SIZE * 1.3;
      out.push(text(MARGIN, y, line, `font-family="${SANS}" font-size="${SUBTITLE_SIZE}" fill="${MUTED}"`));
    });
  y += LEGEND_SIZE * 2.3;

  const legend: string[] = [];
  let x = MARGIN;
  chart.series.forEach((s, i) => {
    const label = right && s.axis === "right" ? `${s.name} (right scale)` : s.name;
    const itemWidth = 28 + 8 + textWidth(label, LEGEND_SIZE);
    if (x > MARGIN && x + itemWidth > W - MARGIN) {
      x = MARGIN;
      y += LEGEND_SIZE * 1.6;
    }
    legend.push(swatch(s.kind, seriesLooks[i]!, x, y));
    legend.push(text(x + 36, y, label, `font-family="${SANS}" font-size="${LEGEND_SIZE}" fill="${INK}"`));
    x += itemWidth + 30;
  });
  out.push(`<g>${legend.join("")}</g>`);

  // Foot, from the bottom up: the source beside the site's name, the note above them, a rule.
  const footWidth = W - 2 * MARGIN;
  const sourceLines = wrap(`Source: ${chart.source}`, footWidth - 190, FOOT_SIZE).slice(0, 2);
  const noteLines = chart.note ? wrap(`Note: ${chart.note}`, footWidth, FOOT_SIZE).slice(0, 2) : [];
  const footLines = [...noteLines, ...sourceLines];
  const footLead = FOOT_SIZE * 1.35;
  const footTop = H - 22 - (footLines.length - 1) * footLead;
  footLines.forEach((line, i) =>
    out.push(text(MARGIN, footTop + i * footLead, line, `font-family="${SANS}" font-size="${FOOT_SIZE}" fill="${MUTED}"`)),
  );
  out.push(
    text(W - MARGIN, H - 22, "Meridian Review", `font-family="${SERIF}" font-size="19" font-weight="700" fill="${INK}" text-anchor="end"`),
  );
  const ruleY = footTop - FOOT_SIZE - 12;
  out.push(`<line x1="${MARGIN}" y1="${ruleY}" x2="${W - MARGIN}" y2="${ruleY}" stroke="${GRID}" stroke-width="1"/>`);

  // The plot's frame: room for the tick labels either side and the years and their label below.
  const rightOnly = right ? chart.series.filter((s) => s.axis === "right") : [];
  const rightInk = rightOnly.length === 1 ? seriesLooks[chart.series.indexOf(rightOnly[0]!)]!.ink : MUTED;
  const leftOnly = chart.series.filter((s) => s.axis === "left");
  const leftInk = right && leftOnly.length === 1 ? seriesLooks[chart.series.indexOf(leftOnly[0]!)]!.ink : MUTED;
  const leftTickWidth = Math.max(...ticks(left).map((t) => textWidth(tickLabel(t, left), AXIS_SIZE)));
  const rightTickWidth = right ? Math.max(...ticks(right).map((t) => textWidth(tickLabel(t, right), AXIS_SIZE))) : 0;
  const plotLeft = MARGIN + leftTickWidth + 10;
  const plotRight = W - MARGIN - (right ? rightTickWidth + 10 : 0);
  const axisTitleY = y + AXIS_SIZE * 2.4;
  const plotTop = axisTitleY + AXIS_SIZE * 1.2;
  const plotBottom = ruleY - AXIS_SIZE * 3.7;

  const scale = (axis: ChartAxis) => (value: number) => plotBottom - ((value - axis.min) / (axis.max - axis.min)) * (plotBottom - plotTop);
  const hasBars = chart.series.some((s) => s.kind === "bars");
  // Bars take a band a year; lines alone run edge to edge, leaving room after the last year for its values.
  const band = (plotRight - plotLeft) / years.length;
  const endRoom = 68;
  const step = (plotRight - plotLeft - 16 - endRoom) / (years.length - 1);
  const xAt = (i: number) => (hasBars ? plotLeft + (i + 0.5) * band : plotLeft + 16 + i * step);

  // Axis titles above each scale; gridlines and tick labels.
  out.push(text(MARGIN, axisTitleY, left.label, `font-family="${SANS}" font-size="${AXIS_SIZE}" font-weight="700" fill="${leftInk}"`));
  if (right)
    out.push(
      text(
        W - MARGIN,
        axisTitleY,
        right.label,
        `font-family="${SANS}" font-size="${AXIS_SIZE}" font-weight="700" fill="${rightInk}" text-anchor="end"`,
      ),
    );
  const leftY = scale(left);
  for (const t of ticks(left)) {
    const ty = leftY(t);
    if (t !== left.min)
      out.push(`<line x1="${n(plotLeft)}" y1="${n(ty)}" x2="${n(plotRight)}" y2="${n(ty)}" stroke="${GRID}" stroke-width="1"/>`);
    out.push(
      text(
        plotLeft - 10,
        ty + AXIS_SIZE * 0.35,
        tickLabel(t, left),
        `font-family="${SANS}" font-size="${AXIS_SIZE}" fill="${leftInk}" text-anchor="end"`,
      ),
    );
  }
  if (right) {
    const rightY = scale(right);
    for (const t of ticks(right))
      out.push(
        text(
          plotRight + 10,
          rightY(t) + AXIS_SIZE * 0.35,
          tickLabel(t, right),
          `font-family="${SANS}" font-size="${AXIS_SIZE}" fill="${rightInk}"`,
        ),
      );
  }

  // Series: areas behind, then bars, then lines; each point is marked and titled with its value.
  const order = chart.series.map((s, i) => ({ s, i })).sort((a, b) => layer(a.s.kind) - layer(b.s.kind) || a.i - b.i);
  const barSeries = chart.series.filter((s) => s.kind === "bars");
  const endLabels: { y: number; label: string; ink: string }[] = [];
  for (const { s, i } of order) {
    const axis = chart.axes[s.axis]!;
    const at = scale(axis);
    const look = seriesLooks[i]!;
    const points = years.map((year, k) => ({ year, value: s.values[String(year)]!, x: xAt(k), y: at(s.values[String(year)]!) }));
    const path = points.map((p, k) => `${k === 0 ? "M" : "L"}${n(p.x)} ${n(p.y)}`).join(" ");
    const pointTitle = (p: (typeof points)[number]) =>
      `<title>${escapeHtml(`${p.year}: ${formatValue(p.value, axis, axis.decimals)}`)}</title>`;
    const group: string[] = [];
    if (s.kind === "area") {
      const base = at(axis.min);
      group.push(`<path d="${path} L${n(points.at(-1)!.x)} ${n(base)} L${n(points[0]!.x)} ${n(base)} Z" fill="${look.fill}"/>`);
      group.push(`<path d="${path}" fill="none" stroke="${look.stroke}" stroke-width="1.5"/>`);
      for (const p of points) group.push(`<circle cx="${n(p.x)}" cy="${n(p.y)}" r="3" fill="${look.stroke}">${pointTitle(p)}</circle>`);
      if (!hasBars) endLabels.push({ y: points.at(-1)!.y, label: shortValue(points.at(-1)!.value, axis), ink: look.ink });
    } else if (s.kind === "bars") {
      const slot = (band * 0.7) / barSeries.length;
      const offset = barSeries.indexOf(s) * slot - (band * 0.7) / 2;
      const base = at(Math.max(axis.min, Math.min(0, axis.max)));
      for (const p of points)
        group.push(
          `<rect x="${n(p.x + offset + 1)}" y="${n(Math.min(p.y, base))}" width="${n(slot - 2)}" height="${n(Math.abs(base - p.y))}" fill="${look.fill}">${pointTitle(p)}</rect>`,
        );
    } else {
      const dotted = s.kind === "dotted-line";
      group.push(
        dotted
          ? `<path d="${path}" fill="none" stroke="${look.stroke}" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round" stroke-dasharray="0.1 7"/>`
          : `<path d="${path}" fill="none" stroke="${look.stroke}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>`,
      );
      for (const p of points)
        group.push(
          dotted
            ? `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="4" fill="${look.stroke}">${pointTitle(p)}</circle>`
            : `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="4.5" fill="#fff" stroke="${look.stroke}" stroke-width="2.5">${pointTitle(p)}</circle>`,
        );
      const last = points.at(-1)!;
      if (!hasBars) endLabels.push({ y: last.y, label: shortValue(last.value, axis), ink: look.ink });
    }
    out.push(`<g data-series="${escapeHtml(s.name)}">${group.join("")}</g>`);
  }

  // The baseline and the years under it (every year while they fit, else every second or more).
  out.push(
    `<line x1="${n(plotLeft)}" y1="${n(plotBottom)}" x2="${n(plotRight)}" y2="${n(plotBottom)}" stroke="${INK}" stroke-width="1.5"/>`,
  );
  const every = Math.ceil((textWidth("2000", AXIS_SIZE) + 16) / (hasBars ? band : step));
  years.forEach((year, k) => {
    if (k % every !== 0 && k !== years.length - 1) return;
    const tx = xAt(k);
    out.push(`<line x1="${n(tx)}" y1="${n(plotBottom)}" x2="${n(tx)}" y2="${n(plotBottom + 6)}" stroke="${INK}" stroke-width="1"/>`);
    out.push(
      text(
        tx,
        plotBottom + AXIS_SIZE * 1.5,
        String(year),
        `font-family="${SANS}" font-size="${AXIS_SIZE}" fill="${MUTED}" text-anchor="middle"`,
      ),
    );
  });
  out.push(
    text(
      (plotLeft + plotRight) / 2,
      plotBottom + AXIS_SIZE * 2.85,
      chart.years.label,
      `font-family="${SANS}" font-size="${AXIS_SIZE}" font-weight="700" fill="${MUTED}" text-anchor="middle"`,
    ),
  );

  // The latest value at the end of each line, pushed apart where lines end close together.
  endLabels.sort((a, b) => a.y - b.y);
  for (let k = 1; k < endLabels.length; k++) endLabels[k]!.y = Math.max(endLabels[k]!.y, endLabels[k - 1]!.y + LEGEND_SIZE * 1.2);
  const lastX = xAt(years.length - 1);
  for (const l of endLabels)
    out.push(
      text(
        lastX + 10,
        l.y + LEGEND_SIZE * 0.35,
        l.label,
        `font-family="${SANS}" font-size="${LEGEND_SIZE}" font-weight="700" fill="${l.ink}"`,
      ),
    );

  const description = `${chart.description} ${dataDescription(chart)} Source: ${chart.source}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="chart-title chart-desc">`,
    `<title id="chart-title">${escapeHtml(`${chart.title}: ${chart.subtitle}`)}</title>`,
    `<desc id="chart-desc">${escapeHtml(description)}</desc>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...out,
    `</svg>`,
  ].join("");
}

function layer(kind: ChartSeries["kind"]): number {
  return kind === "area" ? 0 : kind === "bars" ? 1 : 2;
}
