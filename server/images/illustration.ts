// An article's drawn picture as editorial illustration (issue 41): its subject gives the palette
// and a motif (people for leadership, a globe's meridians for international business, gears for
// operations…), its content type the composition (a chart for a data visual, a portrait frame
// for an interview, a case file for a case study…), and its slug the variations, so that two
// articles of one subject and type still differ. Everything is drawn from those three, the same
// on every start.
import { ARTICLE_ART_SIZE } from "~/shared/art-sizes";
import { hashString, seededRandom } from "~/server/content/random";
import type { Database } from "~/server/db/connection";

/** What an article's picture is drawn from; an unknown article has only its key. */
export interface ArtSubject {
  subject: string;
  contentType: string;
}

/** A subject's colours: the ground (dark enough for white type), a middle tone and a light one. */
interface Palette {
  ground: string;
  mid: string;
  light: string;
}

type Motif = (random: () => number, p: Palette, box: Box) => string;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const r = (n: number) => Math.round(n);

/** Rows of heads and shoulders, one of them picked out. */
const people: Motif = (random, p, { x, y, width, height }) => {
  const rows = 2;
  const perRow = 5 + Math.floor(random() * 3);
  const size = Math.min(width / (perRow + 1), height / (rows + 1.2));
  const chosen = Math.floor(random() * perRow * rows);
  let out = "";
  for (let row = 0; row < rows; row++) {
    for (let i = 0; i < perRow; i++) {
      const cx = x + (i + 0.5 + (row % 2) * 0.5) * (width / (perRow + 0.5));
      const cy = y + height - (rows - row) * size * 0.95;
      const fill = row * perRow + i === chosen ? p.light : p.mid;
      const opacity = row * perRow + i === chosen ? 1 : 0.55 + row * 0.2;
      out += `<g fill="${fill}" fill-opacity="${opacity.toFixed(2)}"><circle cx="${r(cx)}" cy="${r(cy - size * 0.42)}" r="${r(size * 0.2)}"/><path d="M${r(cx - size * 0.36)} ${r(cy + size * 0.2)} q0 ${r(-size * 0.36)} ${r(size * 0.36)} ${r(-size * 0.36)} q${r(size * 0.36)} 0 ${r(size * 0.36)} ${r(size * 0.36)} z"/></g>`;
    }
  }
  return out;
};

/** A route of steps climbing to a target. */
const route: Motif = (random, p, { x, y, width, height }) => {
  const steps = 5 + Math.floor(random() * 3);
  let d = `M${r(x)} ${r(y + height)}`;
  for (let i = 1; i <= steps; i++) {
    const px = x + (width * 0.78 * i) / steps;
    const py = y + height - (height * 0.75 * i) / steps - (random() - 0.5) * height * 0.12;
    d += ` L${r(px)} ${r(py)}`;
  }
  const tx = x + width * 0.86;
  const ty = y + height * 0.18;
  const rings = [0.16, 0.11, 0.05]
    .map(
      (k, i) =>
        `<circle cx="${r(tx)}" cy="${r(ty)}" r="${r(height * k)}" fill="${i % 2 ? p.ground : p.light}" fill-opacity="${i % 2 ? 1 : 0.9}"/>`,
    )
    .join("");
  return `<path d="${d}" fill="none" stroke="${p.mid}" stroke-width="${r(height * 0.035)}" stroke-linejoin="round" stroke-linecap="round"/>${rings}`;
};

/** Nodes on a grid joined by right-angled traces. */
const circuit: Motif = (random, p, { x, y, width, height }) => {
  const cols = 7;
  const rows = 4;
  const dx = width / cols;
  const dy = height / rows;
  let out = "";
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      if (random() < 0.25) continue;
      const cx = x + (i + 0.5) * dx;
      const cy = y + (j + 0.5) * dy;
      if (i < cols - 1 && random() < 0.6) {
        const ny = cy + (random() < 0.5 ? 0 : dy) * (j < rows - 1 ? 1 : 0);
        out += `<path d="M${r(cx)} ${r(cy)} H${r(cx + dx / 2)} V${r(ny)} H${r(cx + dx)}" fill="none" stroke="${p.mid}" stroke-width="12" stroke-linejoin="round"/>`;
      }
      const lit = random() < 0.2;
      out += `<circle cx="${r(cx)}" cy="${r(cy)}" r="${lit ? 26 : 16}" fill="${lit ? p.light : p.mid}"/>`;
    }
  }
  return out;
};

/** Stacks of coins beside a rising bar. */
const ledger: Motif = (random, p, { x, y, width, height }) => {
  let out = "";
  const stacks = 5;
  const coinW = width / (stacks * 1.6);
  const coinH = coinW * 0.28;
  for (let s = 0; s < stacks; s++) {
    const count = 2 + Math.floor(random() * 4) + s;
    const cx = x + coinW * 0.6 + s * coinW * 1.5;
    for (let c = 0; c < count; c++) {
      const cy = y + height - coinH - c * coinH * 0.9;
      out += `<ellipse cx="${r(cx)}" cy="${r(cy)}" rx="${r(coinW / 2)}" ry="${r(coinH / 2)}" fill="${c === count - 1 ? p.light : p.mid}" stroke="${p.ground}" stroke-width="3"/>`;
    }
  }
  return out;
};

/** A globe's meridians and parallels, with a few places marked. */
const globe: Motif = (random, p, { x, y, width, height }) => {
  const radius = Math.min(width, height) * 0.48;
  const cx = x + width * (0.55 + random() * 0.2);
  const cy = y + height * 0.55;
  let out = `<circle cx="${r(cx)}" cy="${r(cy)}" r="${r(radius)}" fill="${p.mid}" fill-opacity="0.35" stroke="${p.light}" stroke-width="5"/>`;
  for (const k of [0.3, 0.62, 0.9])
    out += `<ellipse cx="${r(cx)}" cy="${r(cy)}" rx="${r(radius * k)}" ry="${r(radius)}" fill="none" stroke="${p.light}" stroke-opacity="0.7" stroke-width="3"/>`;
  for (const k of [-0.55, 0, 0.55]) {
    const half = Math.sqrt(1 - k * k) * radius;
    out += `<line x1="${r(cx - half)}" y1="${r(cy + k * radius)}" x2="${r(cx + half)}" y2="${r(cy + k * radius)}" stroke="${p.light}" stroke-opacity="0.7" stroke-width="3"/>`;
  }
  for (let i = 0; i < 4; i++) {
    const a = random() * Math.PI * 2;
    const d = Math.sqrt(random()) * radius * 0.85;
    out += `<circle cx="${r(cx + Math.cos(a) * d)}" cy="${r(cy + Math.sin(a) * d)}" r="12" fill="${p.light}"/>`;
  }
  return out;
};

/** Two meshed gears. */
const gears: Motif = (random, p, { x, y, width, height }) => {
  const gear = (cx: number, cy: number, radius: number, teeth: number, fill: string, turn: number) => {
    let out = `<circle cx="${r(cx)}" cy="${r(cy)}" r="${r(radius)}" fill="${fill}"/>`;
    for (let t = 0; t < teeth; t++) {
      const angle = (360 / teeth) * t + turn;
      out += `<rect x="${r(cx - radius * 0.14)}" y="${r(cy - radius * 1.22)}" width="${r(radius * 0.28)}" height="${r(radius * 0.4)}" fill="${fill}" transform="rotate(${angle.toFixed(1)} ${r(cx)} ${r(cy)})"/>`;
    }
    return `${out}<circle cx="${r(cx)}" cy="${r(cy)}" r="${r(radius * 0.32)}" fill="${p.ground}"/>`;
  };
  // The pair spans about 3.7 times the large gear's radius: kept inside the box.
  const big = Math.min(height * 0.36, width / 3.9);
  const cx = x + Math.max(big * 1.3, width * 0.42 - big);
  const cy = y + height * 0.55;
  return gear(cx, cy, big, 12, p.mid, random() * 30) + gear(cx + big * 1.72, cy - big * 0.62, big * 0.58, 8, p.light, random() * 45);
};

/** A burst of rays from a bright centre. */
const spark: Motif = (random, p, { x, y, width, height }) => {
  const cx = x + width * (0.45 + random() * 0.2);
  const cy = y + height * 0.5;
  const radius = Math.min(width, height) * 0.18;
  let out = "";
  const rays = 14;
  for (let i = 0; i < rays; i++) {
    const a = (i / rays) * Math.PI * 2 + random() * 0.1;
    const inner = radius * 1.35;
    const outer = radius * (2.1 + random() * 0.9);
    out += `<line x1="${r(cx + Math.cos(a) * inner)}" y1="${r(cy + Math.sin(a) * inner)}" x2="${r(cx + Math.cos(a) * outer)}" y2="${r(cy + Math.sin(a) * outer)}" stroke="${i % 3 ? p.mid : p.light}" stroke-width="10" stroke-linecap="round"/>`;
  }
  return `${out}<circle cx="${r(cx)}" cy="${r(cy)}" r="${r(radius)}" fill="${p.light}"/>`;
};

/** An organisation chart: a box over a row of boxes over another. */
const chart: Motif = (random, p, { x, y, width, height }) => {
  const boxW = width * 0.13;
  const boxH = height * 0.16;
  const levels = [1, 3, 5];
  let out = "";
  levels.forEach((count, level) => {
    const cy = y + (level + 0.5) * (height / levels.length) - boxH / 2;
    for (let i = 0; i < count; i++) {
      const cx = x + ((i + 0.5) * width) / count - boxW / 2;
      if (level > 0) {
        const parentX = x + ((Math.floor((i * levels[level - 1]!) / count) + 0.5) * width) / levels[level - 1]!;
        out += `<path d="M${r(parentX)} ${r(cy - height / levels.length + boxH)} V${r(cy - height / 12)} H${r(cx + boxW / 2)} V${r(cy)}" fill="none" stroke="${p.mid}" stroke-width="4"/>`;
      }
      const lit = level === 0 || random() < 0.2;
      out += `<rect x="${r(cx)}" y="${r(cy)}" width="${r(boxW)}" height="${r(boxH)}" rx="6" fill="${lit ? p.light : p.mid}"/>`;
    }
  });
  return out;
};

/** A funnel narrowing to a stream of drops. */
const funnel: Motif = (random, p, { x, y, width, height }) => {
  const cx = x + width * (0.4 + random() * 0.2);
  const top = y + height * 0.08;
  const bands = 4;
  let out = "";
  for (let b = 0; b < bands; b++) {
    const w1 = width * (0.62 - b * 0.13);
    const w2 = width * (0.62 - (b + 1) * 0.13);
    const y1 = top + (b * height * 0.62) / bands;
    const y2 = top + ((b + 1) * height * 0.62) / bands - 8;
    out += `<path d="M${r(cx - w1 / 2)} ${r(y1)} H${r(cx + w1 / 2)} L${r(cx + w2 / 2)} ${r(y2)} H${r(cx - w2 / 2)} z" fill="${b === bands - 1 ? p.light : p.mid}" fill-opacity="${(0.55 + b * 0.15).toFixed(2)}"/>`;
  }
  for (let d = 0; d < 3; d++)
    out += `<circle cx="${r(cx)}" cy="${r(top + height * 0.7 + d * height * 0.09)}" r="${r(12 - d * 2)}" fill="${p.light}"/>`;
  return out;
};

/** The subjects' palettes and motifs. */
const SUBJECTS: Record<string, { palette: Palette; motif: Motif }> = {
  "Leadership & Managing People": { palette: { ground: "#7a2e2e", mid: "#c9785f", light: "#f3d3b5" }, motif: people },
  "Managing Yourself": { palette: { ground: "#5c2a4d", mid: "#b3719a", light: "#f1cfe1" }, motif: people },
  Strategy: { palette: { ground: "#1f3a5f", mid: "#5f8fc4", light: "#f2c14e" }, motif: route },
  Technology: { palette: { ground: "#17324a", mid: "#3f8fa8", light: "#9fe3d9" }, motif: circuit },
  "Finance & Accounting": { palette: { ground: "#2f5233", mid: "#7fae7a", light: "#e8d48b" }, motif: ledger },
  "International Business": { palette: { ground: "#22495c", mid: "#5d9bb5", light: "#e9f1f4" }, motif: globe },
  "Economics & Society": { palette: { ground: "#3d4a1f", mid: "#96a35a", light: "#eef0c8" }, motif: globe },
  Operations: { palette: { ground: "#3a3f47", mid: "#8a95a3", light: "#f2a541" }, motif: gears },
  Innovation: { palette: { ground: "#4b3869", mid: "#9a82c9", light: "#ffd86b" }, motif: spark },
  "R&D": { palette: { ground: "#26345c", mid: "#6f83c4", light: "#c6f0ff" }, motif: spark },
  Entrepreneurship: { palette: { ground: "#8a4b08", mid: "#d98f3c", light: "#fde3b0" }, motif: spark },
  "Managing Organizations": { palette: { ground: "#2d3e50", mid: "#6b8aa8", light: "#f0b67f" }, motif: chart },
  "Board Governance": { palette: { ground: "#312b3f", mid: "#7c6f99", light: "#e9d9a6" }, motif: chart },
  "Sales & Marketing": { palette: { ground: "#7a1f3d", mid: "#d0648a", light: "#ffe0a3" }, motif: funnel },
};

const MOTIFS = [people, route, circuit, ledger, globe, gears, spark, chart, funnel];
const PALETTES = Object.values(SUBJECTS).map((s) => s.palette);

/** Words of a cover story's title that say which subject it belongs to: an issue has no topic. */
const TITLE_SUBJECTS: [RegExp, string][] = [
  [/\b(comput|electronic|data|digital|software|internet|automat|cyber|ai\b|artificial|cloud|platform|technolog|knowledge)/i, "Technology"],
  [/\b(strateg|compet|growth|diversif|portfolio|merger|acquisit)/i, "Strategy"],
  [/\b(lead|manag|boss|labor|labour|workforce|worker|talent|people|career|union|team|foreman)/i, "Leadership & Managing People"],
  [/\b(financ|capital|money|bank|invest|inflation|budget|account|profit|debt|cost)/i, "Finance & Accounting"],
  [/\b(global|world|international|trade|export|japan|china|europe|emerging|abroad)/i, "International Business"],
  [/\b(supply|operation|production|quality|factory|manufactur|logistic|lean)/i, "Operations"],
  [/\b(innovat|invent|idea|startup|entrepreneur|research|creativ)/i, "Innovation"],
  [/\b(board|governance|organi[sz]ation|decentrali|corporat|bureaucra|structure)/i, "Managing Organizations"],
  [/\b(market|sell|sales|consumer|customer|brand|advertis|retail|suburb|price|pricing)/i, "Sales & Marketing"],
  [/\b(econom|society|climate|sustainab|inequal|government|regulat|stakeholder)/i, "Economics & Society"],
];

/** The subject a title's words point to, if any. */
export function subjectOfTitle(title: string): string | undefined {
  return TITLE_SUBJECTS.find(([words]) => words.test(title))?.[1];
}

/**
 * A subject's ground and its motif in `box`, for pictures that carry type over them (a video's
 * title slide). Without a subject the key picks them, as for an article.
 */
export function subjectBackdrop(key: string, subject: string | undefined, box: Box): { ground: string; figure: string } {
  const seed = hashString(key);
  const known = subject !== undefined && Object.hasOwn(SUBJECTS, subject) ? SUBJECTS[subject]! : undefined;
  const palette = known?.palette ?? PALETTES[seed % PALETTES.length]!;
  const motif = known?.motif ?? MOTIFS[seed % MOTIFS.length]!;
  return { ground: palette.ground, figure: motif(seededRandom(seed), palette, box) };
}

/** A chart-like figure for a data visual: axes, bars and a line through them. */
function dataFigure(random: () => number, p: Palette, { x, y, width, height }: Box): string {
  const bars = 7;
  const gap = width / (bars * 3);
  const barW = (width - gap * (bars + 1)) / bars;
  let out = `<path d="M${r(x)} ${r(y)} V${r(y + height)} H${r(x + width)}" fill="none" stroke="${p.light}" stroke-width="5"/>`;
  const tops: [number, number][] = [];
  let level = 0.3 + random() * 0.2;
  for (let i = 0; i < bars; i++) {
    level = Math.min(0.95, Math.max(0.15, level + (random() - 0.35) * 0.25));
    const bx = x + gap + i * (barW + gap);
    const bh = height * level;
    out += `<rect x="${r(bx)}" y="${r(y + height - bh)}" width="${r(barW)}" height="${r(bh)}" fill="${p.mid}" fill-opacity="${i === bars - 1 ? 1 : 0.7}"/>`;
    tops.push([bx + barW / 2, y + height - bh - height * 0.08]);
  }
  out += `<polyline points="${tops.map(([a, b]) => `${r(a)},${r(b)}`).join(" ")}" fill="none" stroke="${p.light}" stroke-width="6" stroke-linejoin="round"/>`;
  return out + tops.map(([a, b]) => `<circle cx="${r(a)}" cy="${r(b)}" r="9" fill="${p.light}"/>`).join("");
}

/** A portrait frame for an interview: a bust in an oval, quotation marks beside it. */
function portraitFrame(random: () => number, p: Palette, { x, y, width, height }: Box): string {
  const cx = x + width * (0.3 + random() * 0.1);
  const cy = y + height * 0.5;
  const rx = height * 0.36;
  const ry = height * 0.46;
  const bust = `<circle cx="${r(cx)}" cy="${r(cy - ry * 0.22)}" r="${r(rx * 0.42)}" fill="${p.light}"/><path d="M${r(cx - rx * 0.8)} ${r(cy + ry)} q0 ${r(-ry * 0.7)} ${r(rx * 0.8)} ${r(-ry * 0.7)} q${r(rx * 0.8)} 0 ${r(rx * 0.8)} ${r(ry * 0.7)} z" fill="${p.light}"/>`;
  const quote = (qx: number) =>
    `<path d="M${r(qx)} ${r(y + height * 0.3)} h44 v44 q0 40 -40 52 v-20 q16 -8 16 -32 h-20 z" fill="${p.light}"/>`;
  return `<defs><clipPath id="portrait"><ellipse cx="${r(cx)}" cy="${r(cy)}" rx="${r(rx)}" ry="${r(ry)}"/></clipPath></defs><ellipse cx="${r(cx)}" cy="${r(cy)}" rx="${r(rx)}" ry="${r(ry)}" fill="${p.mid}"/><g clip-path="url(#portrait)">${bust}</g><ellipse cx="${r(cx)}" cy="${r(cy)}" rx="${r(rx + 14)}" ry="${r(ry + 14)}" fill="none" stroke="${p.light}" stroke-width="6"/>${quote(x + width * 0.62)}${quote(x + width * 0.62 + 64)}`;
}

/** A case file: a folder with its tab, the subject's motif on the sheet inside. */
function caseFile(random: () => number, p: Palette, box: Box, motif: Motif): string {
  const { x, y, width, height } = box;
  const inner = { x: x + width * 0.12, y: y + height * 0.2, width: width * 0.76, height: height * 0.62 };
  return `<path d="M${r(x)} ${r(y + height * 0.08)} h${r(width * 0.3)} l30 30 H${r(x + width)} V${r(y + height)} H${r(x)} z" fill="${p.mid}" fill-opacity="0.5"/><rect x="${r(x + width * 0.06)}" y="${r(y + height * 0.14)}" width="${r(width * 0.88)}" height="${r(height * 0.8)}" fill="${p.ground}" stroke="${p.light}" stroke-width="4"/>${motif(random, p, inner)}`;
}

/** A grid of dots, a few of them found: research sifting evidence. */
function dotField(random: () => number, p: Palette, { x, y, width, height }: Box): string {
  let out = "";
  const cols = 16;
  const rows = 8;
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < rows; j++) {
      const lit = random() < 0.08;
      out += `<circle cx="${r(x + (i + 0.5) * (width / cols))}" cy="${r(y + (j + 0.5) * (height / rows))}" r="${lit ? 13 : 7}" fill="${lit ? p.light : p.mid}" fill-opacity="${lit ? 1 : 0.6}"/>`;
    }
  }
  const lx = x + width * (0.55 + random() * 0.2);
  const ly = y + height * (0.35 + random() * 0.2);
  return `${out}<circle cx="${r(lx)}" cy="${r(ly)}" r="${r(height * 0.22)}" fill="none" stroke="${p.light}" stroke-width="12"/><line x1="${r(lx + height * 0.16)}" y1="${r(ly + height * 0.16)}" x2="${r(lx + height * 0.36)}" y2="${r(ly + height * 0.36)}" stroke="${p.light}" stroke-width="20" stroke-linecap="round"/>`;
}

/** A published article's subject (its primary topic's, or the topic itself when it is one) and type. */
export async function articleArtSubject(db: Database, slug: string): Promise<ArtSubject | undefined> {
  const row = await db
    .selectFrom("article")
    .innerJoin("topic", "topic.id", "article.primary_topic_id")
    .leftJoin("topic as subject", "subject.id", "topic.subject_id")
    .select(["article.content_type", "topic.name as topic", "subject.name as subject"])
    .where("article.slug", "=", slug)
    .executeTakeFirst();
  return row && { subject: row.subject ?? row.topic, contentType: row.content_type };
}

/**
 * An article's picture at ARTICLE_ART_SIZE. Without its subject and type (an unknown slug) the
 * key alone picks a palette and motif.
 */
export function articleIllustration(key: string, about?: ArtSubject): string {
  const { width, height } = ARTICLE_ART_SIZE;
  const seed = hashString(key);
  const random = seededRandom(seed);
  const known = about && Object.hasOwn(SUBJECTS, about.subject) ? SUBJECTS[about.subject]! : undefined;
  const palette = known?.palette ?? PALETTES[seed % PALETTES.length]!;
  const motif = known?.motif ?? MOTIFS[seed % MOTIFS.length]!;
  const stage: Box = { x: width * 0.1, y: height * 0.14, width: width * 0.8, height: height * 0.72 };
  const type = about?.contentType;
  const figure =
    type === "Data Visual"
      ? dataFigure(random, palette, stage)
      : type === "Interview"
        ? portraitFrame(random, palette, stage)
        : type === "Case Study"
          ? caseFile(random, palette, stage, motif)
          : type === "Research Summary"
            ? dotField(random, palette, stage)
            : type === "Big Idea"
              ? motif(random, palette, { x: width * 0.04, y: height * 0.04, width: width * 0.92, height: height * 0.92 })
              : motif(random, palette, stage);
  // A band of the middle tone behind the figure: the ground's horizon, placed by the key.
  const band = r(height * (0.55 + random() * 0.2));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect width="100%" height="100%" fill="${palette.ground}"/><rect y="${band}" width="100%" height="${height - band}" fill="${palette.mid}" fill-opacity="0.18"/>${figure}</svg>`;
}
