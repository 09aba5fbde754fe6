import { db } from "~/app/lib/context/db.server";
import { pngResponse, svgResponse } from "~/app/lib/http/responses.server";
import { issueByCode } from "~/server/content/archive";
import { podcastEpisodePage, podcastSeries } from "~/server/content/podcasts";
import { videoPosterSource } from "~/server/content/videos";
import {
  episodeArtwork,
  episodeCover,
  issueCover,
  podcastArtwork,
  podcastCover,
  productCover,
  productCoverPng,
  videoPoster,
} from "~/server/images/art";
import { chartSvgOf } from "~/server/images/charts";
import { articleArtSubject, articleIllustration } from "~/server/images/illustration";
import { productBySlug } from "~/server/store/catalogue";
import { issueCodeOfArtKey } from "~/shared/urls";

/** A file name's key and extension, when the key is a slug and the extension one of `extensions`. */
function slugFile(file: string, extensions: string[]): { key: string; png: boolean } | undefined {
  const match = /^([a-z0-9-]{1,120})\.([a-z]{3})$/.exec(file);
  return match && extensions.includes(match[2]!) ? { key: match[1]!, png: match[2] === "png" } : undefined;
}

/**
 * The generated artwork served under /art/{kind}/{file}: each kind's file name says what it is
 * of (a slug, an issue code or an episode number) and whether it is SVG or PNG. Undefined for an
 * unknown kind or file.
 */
const ART: Record<string, (file: string) => Promise<Response | undefined>> = {
  async article(file) {
    const f = slugFile(file, ["svg"]);
    return f && svgResponse(articleIllustration(f.key, await articleArtSubject(await db(), f.key)));
  },
  async chart(file) {
    const f = slugFile(file, ["svg"]);
    const svg = f && chartSvgOf(f.key);
    return svg ? svgResponse(svg) : undefined;
  },
  async episode(file) {
    const match = /^(\d{1,9})\.(svg|png)$/.exec(file);
    const page = match ? await podcastEpisodePage(await db(), Number(match[1])) : undefined;
    if (!page) return undefined;
    const series = { ...page.series, serial: page.series.feedType === "serial" };
    return match![2] === "png" ? pngResponse(await episodeArtwork(series, page.episode)) : svgResponse(episodeCover(series, page.episode));
  },
  async issue(file) {
    // Drawn as the issue is now, whichever of its versions the address names (issueArtKey).
    const key = /^([A-Za-z0-9-]{1,20})\.svg$/.exec(file)?.[1];
    const code = key && issueCodeOfArtKey(key);
    const issue = code ? await issueByCode(await db(), code) : undefined;
    return issue && svgResponse(issueCover(issue));
  },
  async podcast(file) {
    const f = slugFile(file, ["svg", "png"]);
    const series = f ? await podcastSeries(await db(), f.key) : undefined;
    return series && (f!.png ? pngResponse(await podcastArtwork(series)) : svgResponse(podcastCover(series)));
  },
  async product(file) {
    const f = slugFile(file, ["svg", "png"]);
    const product = f ? await productBySlug(await db(), f.key) : undefined;
    return product && (f!.png ? pngResponse(await productCoverPng(product)) : svgResponse(productCover(product)));
  },
  async video(file) {
    const f = slugFile(file, ["svg"]);
    const video = f ? await videoPosterSource(await db(), f.key) : undefined;
    return video && svgResponse(videoPoster(video));
  },
};

export function artFile(kind: string, file: string): Promise<Response | undefined> {
  const render = Object.hasOwn(ART, kind) ? ART[kind] : undefined;
  return render ? render(file) : Promise.resolve(undefined);
}
