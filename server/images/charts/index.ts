import { CHART_PNG_SCALE, CHART_SIZE } from "~/shared/art-sizes";
import { chartArtPath } from "~/shared/urls";
import { KeptPngs, svgToPng } from "~/server/images/raster";
import { chartData } from "./data";
import { chartSvg } from "./render";

// A visual-library article's chart as the site serves it: the SVG drawn from the data (on the
// article page and as a subscriber's download) and its PNG at twice the size (the other download).
// Each is drawn once per process: the data is read once, and a PNG costs a fifth of a second.

const svgs = new Map<string, string>();
const pngs = new KeptPngs(32);

/** The chart of the article with this slug as an SVG document; undefined when it has none. */
export function chartSvgOf(slug: string): string | undefined {
  const kept = svgs.get(slug);
  if (kept) return kept;
  const data = chartData(slug);
  if (!data) return undefined;
  const svg = chartSvg(data);
  svgs.set(slug, svg);
  return svg;
}

/** The chart as a PNG of CHART_PNG_SCALE times its drawn size; undefined when it has none. */
export async function chartPngOf(slug: string): Promise<Buffer | undefined> {
  const svg = chartSvgOf(slug);
  if (!svg) return undefined;
  return pngs.get(slug, () => svgToPng(svg, { width: CHART_SIZE.width * CHART_PNG_SCALE }));
}

/**
 * The chart as an article shows it in place of drawn art: its public address and its alt text,
 * which says what the chart shows; undefined when the article has none.
 */
export function chartImage(slug: string): { path: string; alt: string } | undefined {
  const data = chartData(slug);
  return data && { path: chartArtPath(slug), alt: `Chart: ${data.title}. ${data.description}` };
}
