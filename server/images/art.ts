import {
  ARTICLE_ART_SIZE,
  ISSUE_COVER_SIZE,
  PODCAST_ARTWORK_PX,
  PODCAST_COVER_SIZE,
  PRODUCT_COVER_SIZE,
  PRODUCT_PNG_SCALE,
  SOCIAL_CARD_SIZE,
  VIDEO_POSTER_SIZE,
} from "~/shared/art-sizes";
import { hashString, seededRandom } from "~/server/content/random";
import { KeptPngs, svgToPng } from "./raster";
import { escapeHtml } from "~/server/text/escape";
import { articleIllustration, subjectBackdrop, subjectOfTitle, type ArtSubject } from "./illustration";

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

/**
 * An issue's cover as a magazine's: the masthead and date, the cover story's picture (the motif of
 * the subject its title points to) and the cover line under it.
 */
export function issueCover(issue: { code: string; title: string; monthLabel: string; year: number }): string {
  const { width, height } = ISSUE_COVER_SIZE;
  const lines = clampLines(wrap(issue.title, 16), 4);
  const firstBaseline = height - 48 - (lines.length - 1) * 58;
  const backdrop = subjectBackdrop(issue.code, subjectOfTitle(issue.title), {
    x: 40,
    y: 200,
    width: width - 80,
    height: firstBaseline - 290,
  });
  const title = lines
    .map(
      (line, i) =>
        `<text x="40" y="${firstBaseline + i * 58}" font-size="50" font-weight="700" fill="#fff" font-family="Georgia, serif"${fitWidth(line, 50, width - 80)}>${escapeHtml(line)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${backdrop.ground}"/>${backdrop.figure}<text x="40" y="110" font-size="54" font-weight="700" textLength="520" lengthAdjust="spacingAndGlyphs" fill="#fff" font-family="Georgia, serif">Meridian Review</text><text x="40" y="160" font-size="28" fill="#fff" font-family="Helvetica, Arial, sans-serif">${escapeHtml(`${issue.monthLabel} ${issue.year}`)}</text><rect x="40" y="${firstBaseline - 78}" width="80" height="8" fill="#fff"/>${title}</svg>`;
}

/** A video's poster: its title slide, as the video's first frame shows it. */
export function videoPoster(video: { slug: string; title: string; topic: string; subject?: string }): string {
  const { width, height } = VIDEO_POSTER_SIZE;
  // The subject's motif at the right, faint, behind where a long title ends.
  const backdrop = subjectBackdrop(video.slug, video.subject, {
    x: width * 0.52,
    y: height * 0.2,
    width: width * 0.42,
    height: height * 0.62,
  });
  const lines = wrap(video.title, 26);
  const top = Math.round(height / 2 - (lines.length * 84) / 2 + 60);
  const title = lines
    .map(
      (line, i) =>
        `<text x="80" y="${top + i * 84}" font-size="68" font-weight="700" fill="#fff" font-family="Georgia, serif">${escapeHtml(line)}</text>`,
    )
    .join("");
  const sans = `fill="#fff" font-size="32" font-family="Helvetica, Arial, sans-serif"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${backdrop.ground}"/><g opacity="0.3">${backdrop.figure}</g><text x="80" y="96" ${sans}>MERIDIAN REVIEW VIDEO</text><rect x="80" y="124" width="96" height="8" fill="#fff"/>${title}<text x="80" y="${height - 80}" ${sans}>${escapeHtml(video.topic.toUpperCase())}</text></svg>`;
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

/** What an episode's cover says it is: its place in a serial show, or its type in any show. */
function episodeLabel(e: { season: number; episode: number; episodeType: string }, serial: boolean): string {
  const type = e.episodeType === "full" ? "" : e.episodeType.toUpperCase();
  const place = serial ? `SEASON ${e.season} · EPISODE ${e.episode}` : `EPISODE ${e.episode}`;
  return type && !serial ? type : [place, type].filter(Boolean).join(" · ");
}

/**
 * An episode's square cover: its show's colour, the show's name, the episode's title and its
 * place in the show (podcast apps show it beside the episode).
 */
export function episodeCover(
  series: { slug: string; title: string; serial: boolean },
  episode: { id: number; title: string; season: number; episode: number; episodeType: string },
): string {
  const { width, height } = PODCAST_COVER_SIZE;
  const random = seededRandom(hashString(`${series.slug}/${episode.id}`));
  const colour = PALETTE[hashString(series.slug) % PALETTE.length];
  const lines = clampLines(wrap(episode.title, 18), 5);
  const top = 236 + (5 - lines.length) * 26;
  const title = lines
    .map(
      (line, i) =>
        `<text x="48" y="${top + i * 56}" font-size="48" font-weight="700" fill="#fff" font-family="Georgia, serif"${fitWidth(line, 48, 504)}>${escapeHtml(line)}</text>`,
    )
    .join("");
  const sans = `fill="#fff" font-family="Helvetica, Arial, sans-serif"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${colour}"/>${shapes(random, width, height, 6)}<text x="48" y="96" font-size="28" ${sans}>MERIDIAN REVIEW PODCASTS</text><rect x="48" y="120" width="80" height="8" fill="#fff"/><text x="48" y="176" font-size="30" ${sans}${fitWidth(series.title, 30 * 0.92, 504)}>${escapeHtml(series.title)}</text>${title}<text x="48" y="${height - 56}" font-size="24" letter-spacing="2" ${sans}>${escapeHtml(episodeLabel(episode, series.serial))}</text></svg>`;
}

const podcastArtworks = new KeptPngs(64);

/**
 * A podcast's cover as podcast directories take it: a square PNG of PODCAST_ARTWORK_PX pixels,
 * drawn once per process per show (it takes about half a second).
 */
export function podcastArtwork(series: { slug: string; title: string }): Promise<Buffer> {
  return podcastArtworks.get(`${series.slug}\n${series.title}`, () => svgToPng(podcastCover(series), { width: PODCAST_ARTWORK_PX }));
}

/** An episode's cover as the feed's `itunes:image` takes it: the same square PNG as its show's. */
export function episodeArtwork(...args: Parameters<typeof episodeCover>): Promise<Buffer> {
  const svg = episodeCover(...args);
  return podcastArtworks.get(svg, () => svgToPng(svg, { width: PODCAST_ARTWORK_PX }));
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

const productPngs = new KeptPngs(64);

/** A product's cover as a PNG of PRODUCT_PNG_SCALE times its drawn size, for its JSON-LD `image` (Google takes no SVG there). */
export function productCoverPng(product: Parameters<typeof productCover>[0]): Promise<Buffer> {
  const svg = productCover(product);
  return productPngs.get(svg, () => svgToPng(svg, { width: PRODUCT_COVER_SIZE.width * PRODUCT_PNG_SCALE }));
}

/** A picture drawn by this module, and the size it was drawn at. */
export interface Picture {
  svg: string;
  width: number;
  height: number;
}

/**
 * What a social card shows: the title over the art of `key` (an article's slug gives the
 * article's own art), with a kicker above it (the topic, the show, the issue's date) or a line
 * below it, and a cover, a podcast's artwork or a chart beside it.
 */
export interface TitleCard {
  key: string;
  /** An article's subject and type, which its picture is drawn from. */
  art?: ArtSubject;
  kicker?: string;
  title: string;
  line?: string;
  picture?: Picture;
}

/** A picture placed in a box of the card: `fit` shows all of it, `fill` covers the box and crops what overflows. */
function placed(picture: Picture, box: { x: number; y: number; width: number; height: number }, mode: "fit" | "fill"): string {
  const inner = picture.svg.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "");
  const aspect = mode === "fit" ? "xMidYMid meet" : "xMidYMid slice";
  return `<svg x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" viewBox="0 0 ${picture.width} ${picture.height}" preserveAspectRatio="${aspect}">${inner}</svg>`;
}

/** Lines beyond `max` are dropped, the last kept one ending in an ellipsis. */
function clampLines(lines: string[], max: number): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  kept[max - 1] = `${kept[max - 1]!.replace(/[\s,;:.–—-]+$/, "")}…`;
  return kept;
}

/**
 * A text too wide for its column (one long word, or wider letters than the wrap allowed for) is
 * squeezed to the column; DejaVu's letters average about 0.6 of their size.
 */
function fitWidth(text: string, size: number, column: number): string {
  return text.length * size * 0.6 > column ? ` textLength="${column}" lengthAdjust="spacingAndGlyphs"` : "";
}

const CARD_MARGIN = 64;
const CARD_INK = "#1c232b";
const PICTURE_GAP = 48;

/**
 * A page's social card (og:image), 1200 × 630: the site's name and a rule at the top, the title
 * at the foot in large serif type over the key's art, darkened towards the foot so that the
 * white text reads on any of it, and the picture, if any, at the right.
 */
export function socialCard(card: TitleCard): string {
  const { width, height } = SOCIAL_CARD_SIZE;
  // Beside a picture (itself in the key's colour) the card is ink, with the key's shapes faint.
  const backdrop = card.picture
    ? `<rect width="100%" height="100%" fill="${CARD_INK}"/><g opacity="0.3">${shapes(seededRandom(hashString(card.key)), width, height, 6)}</g>`
    : placed({ svg: articleIllustration(card.key, card.art), ...ARTICLE_ART_SIZE }, { x: 0, y: 0, width, height }, "fill");
  const shade = `<defs><linearGradient id="card-shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.3"/><stop offset="0.35" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.55"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#card-shade)"/>`;
  let picture = "";
  let column = width - 2 * CARD_MARGIN;
  if (card.picture) {
    const box = fitted(card.picture, { width: 520, height: height - 2 * CARD_MARGIN });
    const x = width - CARD_MARGIN - box.width;
    const y = Math.round((height - box.height) / 2);
    picture = `<rect x="${x + 12}" y="${y + 12}" width="${box.width}" height="${box.height}" fill="#000" fill-opacity="0.35"/>${placed(card.picture, { x, y, ...box }, "fit")}`;
    column = x - PICTURE_GAP - CARD_MARGIN;
  }
  const size = card.picture ? 54 : 66;
  const leading = Math.round(size * 1.16);
  const lines = clampLines(wrap(card.title, Math.floor(column / (size * 0.56))), card.line ? 3 : 4);
  const below = card.line ? clampLines(wrap(card.line, Math.floor(column / 17)), 2) : [];
  const lastBaseline = height - CARD_MARGIN - (below.length > 0 ? below.length * 42 + 12 : 0);
  const titleTop = lastBaseline - (lines.length - 1) * leading;
  const sans = `fill="#fff" font-family="Helvetica, Arial, sans-serif"`;
  const kicker = card.kicker
    ? `<text x="${CARD_MARGIN}" y="${titleTop - size - 6}" font-size="26" letter-spacing="2" ${sans}${fitWidth(card.kicker, 26, column)}>${escapeHtml(card.kicker.toUpperCase())}</text>`
    : "";
  const title = lines
    .map(
      (line, i) =>
        `<text x="${CARD_MARGIN}" y="${titleTop + i * leading}" font-size="${size}" font-weight="700" fill="#fff" font-family="Georgia, serif"${fitWidth(line, size, column)}>${escapeHtml(line)}</text>`,
    )
    .join("");
  const line = below
    .map((text, i) => `<text x="${CARD_MARGIN}" y="${lastBaseline + 54 + i * 42}" font-size="30" ${sans}>${escapeHtml(text)}</text>`)
    .join("");
  const brand = `<text x="${CARD_MARGIN}" y="${CARD_MARGIN + 34}" font-size="30" letter-spacing="3" ${sans}>MERIDIAN REVIEW</text><rect x="${CARD_MARGIN}" y="${CARD_MARGIN + 58}" width="96" height="8" fill="#fff"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">${backdrop}${shade}${picture}${brand}${kicker}${title}${line}</svg>`;
}

/** The largest size of a picture's proportions within a box. */
function fitted(picture: Picture, box: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  return { width: Math.round(picture.width * scale), height: Math.round(picture.height * scale) };
}

/** A picture that already is a title card (a video's poster) as a social card: cropped to the card's shape. */
export function pictureCard(picture: Picture): string {
  const { width, height } = SOCIAL_CARD_SIZE;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">${placed(picture, { x: 0, y: 0, width, height }, "fill")}</svg>`;
}

const socialCards = new KeptPngs(128);

/** A social card's SVG as the PNG og:image names, drawn once per process while it is asked for. */
export function socialCardPng(svg: string): Promise<Buffer> {
  return socialCards.get(svg, () => svgToPng(svg, { width: SOCIAL_CARD_SIZE.width }));
}
