import {
  ARTICLE_ART_SIZE,
  ISSUE_COVER_SIZE,
  PODCAST_ARTWORK_PX,
  PODCAST_COVER_SIZE,
  PRODUCT_COVER_SIZE,
  VIDEO_POSTER_SIZE,
} from "../shared/art-sizes";
import { hashString, seededRandom } from "./content/random";
import { KeptPngs, svgToPng } from "./raster";
import { escapeHtml } from "./text/escape";

// Deterministic cover art drawn from a key, so the site ships no binary images and
// loads none from elsewhere. Colours are dark enough for white text (contrast > 4.5:1).

const PALETTE = ["#1f3a5f", "#7a2e2e", "#2f5233", "#4b3869", "#8a4b08", "#22495c", "#5c2a4d", "#3d4a1f"];

function shapes(random: () => number, width: number, height: number, count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) {
    const x = Math.round(random() * width);
    const y = Math.round(random() * height);
    const r = Math.round(20 + random() * width * 0.3);
    const opacity = (0.08 + random() * 0.2).toFixed(2);
    out +=
      random() > 0.5
        ? `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" fill-opacity="${opacity}"/>`
        : `<rect x="${x - r}" y="${y - r / 3}" width="${r * 2}" height="${Math.round(r / 1.5)}" fill="#fff" fill-opacity="${opacity}" transform="rotate(${Math.round(random() * 60 - 30)} ${x} ${y})"/>`;
  }
  return out;
}

/** Words into lines of at most `width` characters (a longer word keeps a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

export function articleArt(key: string): string {
  const { width, height } = ARTICLE_ART_SIZE;
  const random = seededRandom(hashString(key));
  const colour = PALETTE[hashString(key) % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${colour}"/>${shapes(random, width, height, 9)}</svg>`;
}

export function issueCover(issue: { code: string; title: string; monthLabel: string; year: number }): string {
  const { width, height } = ISSUE_COVER_SIZE;
  const random = seededRandom(hashString(issue.code));
  const colour = PALETTE[hashString(issue.code) % PALETTE.length];
  const title = wrap(issue.title, 16)
    .map(
      (line, i) =>
        `<text x="40" y="${420 + i * 58}" font-size="50" font-weight="700" fill="#fff" font-family="Georgia, serif">${escapeHtml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${colour}"/>${shapes(random, width, height, 6)}<text x="40" y="110" font-size="54" font-weight="700" textLength="520" lengthAdjust="spacingAndGlyphs" fill="#fff" font-family="Georgia, serif">Meridian Review</text><text x="40" y="160" font-size="28" fill="#fff" font-family="Helvetica, Arial, sans-serif">${escapeHtml(`${issue.monthLabel} ${issue.year}`)}</text>${title}</svg>`;
}

/** A video's poster: its title slide, as the video's first frame shows it. */
export function videoPoster(video: { slug: string; title: string; topic: string }): string {
  const { width, height } = VIDEO_POSTER_SIZE;
  const random = seededRandom(hashString(video.slug));
  const colour = PALETTE[hashString(video.slug) % PALETTE.length];
  const lines = wrap(video.title, 26);
  const top = Math.round(height / 2 - (lines.length * 84) / 2 + 60);
  const title = lines
    .map(
      (line, i) =>
        `<text x="80" y="${top + i * 84}" font-size="68" font-weight="700" fill="#fff" font-family="Georgia, serif">${escapeHtml(line)}</text>`,
    )
    .join("");
  const sans = `fill="#fff" font-size="32" font-family="Helvetica, Arial, sans-serif"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${colour}"/>${shapes(random, width, height, 5)}<text x="80" y="96" ${sans}>MERIDIAN REVIEW VIDEO</text><rect x="80" y="124" width="96" height="8" fill="#fff"/>${title}<text x="80" y="${height - 80}" ${sans}>${escapeHtml(video.topic.toUpperCase())}</text></svg>`;
}

/** A podcast's square cover: the show's title over the site's name. */
export function podcastCover(series: { slug: string; title: string }): string {
  const { width, height } = PODCAST_COVER_SIZE;
  const random = seededRandom(hashString(series.slug));
  const colour = PALETTE[hashString(series.slug) % PALETTE.length];
  const title = wrap(series.title, 14)
    .map(
      (line, i) =>
        `<text x="48" y="${300 + i * 64}" font-size="56" font-weight="700" fill="#fff" font-family="Georgia, serif">${escapeHtml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${colour}"/>${shapes(random, width, height, 6)}<text x="48" y="96" fill="#fff" font-size="28" font-family="Helvetica, Arial, sans-serif">MERIDIAN REVIEW PODCASTS</text><rect x="48" y="120" width="80" height="8" fill="#fff"/>${title}</svg>`;
}

const podcastArtworks = new KeptPngs(64);

/**
 * A podcast's cover as podcast directories take it: a square PNG of PODCAST_ARTWORK_PX pixels,
 * drawn once per process per show (it takes about half a second).
 */
export function podcastArtwork(series: { slug: string; title: string }): Promise<Buffer> {
  return podcastArtworks.get(`${series.slug}\n${series.title}`, () => svgToPng(podcastCover(series), { width: PODCAST_ARTWORK_PX }));
}

/** What the top of a product's cover says it is. */
const IMPRINTS: Record<string, string> = {
  Book: "MERIDIAN REVIEW PRESS",
  "Magazine Issue": "MERIDIAN REVIEW",
  "Case Study": "MERIDIAN REVIEW CASE STUDY",
  "Article Reprint": "MERIDIAN REVIEW REPRINT",
  Toolkit: "MERIDIAN REVIEW TOOLKIT",
  Bundle: "MERIDIAN REVIEW COLLECTION",
};

/** The imprint a product's cover and title page name. */
export const imprintOf = (productType: string) => IMPRINTS[productType] ?? "MERIDIAN REVIEW";

/**
 * A store product's cover, drawn as the issue covers are: the imprint, a rule, the title (a
 * subtitle after a colon in smaller type) and the authors at the foot.
 */
export function productCover(product: { slug: string; title: string; productType: string; authors: string[] }): string {
  const { width, height } = PRODUCT_COVER_SIZE;
  const random = seededRandom(hashString(product.slug));
  const colour = PALETTE[hashString(product.slug) % PALETTE.length];
  const [main = product.title, ...rest] = product.title.split(": ");
  const subtitle = rest.join(": ");
  const titleLines = wrap(main, 15);
  const subtitleTop = 300 + titleLines.length * 62 + 24;
  const title = titleLines
    .map(
      (line, i) =>
        `<text x="48" y="${300 + i * 62}" font-size="54" font-weight="700" fill="#fff" font-family="Georgia, serif">${escapeHtml(line)}</text>`,
    )
    .join("");
  const sub = subtitle
    ? wrap(subtitle, 30)
        .slice(0, 4)
        .map(
          (line, i) =>
            `<text x="48" y="${subtitleTop + i * 38}" font-size="30" fill="#fff" font-family="Georgia, serif">${escapeHtml(line)}</text>`,
        )
        .join("")
    : "";
  const sans = `fill="#fff" font-family="Helvetica, Arial, sans-serif"`;
  const imprint = imprintOf(product.productType);
  const byline = product.authors.length > 0 ? product.authors.join(", ") : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><title>${escapeHtml(product.title)}</title><rect width="100%" height="100%" fill="${colour}"/>${shapes(random, width, height, 6)}<text x="48" y="96" font-size="26" letter-spacing="2" ${sans}>${escapeHtml(imprint)}</text><rect x="48" y="122" width="80" height="8" fill="#fff"/>${title}${sub}<text x="48" y="${height - 64}" font-size="28" textLength="${Math.min(504, byline.length * 15)}" lengthAdjust="spacingAndGlyphs" ${sans}>${escapeHtml(byline)}</text></svg>`;
}
