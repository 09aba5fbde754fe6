import type { MetaDescriptor } from "@remix-run/react";
import { SITE_NAME } from "./site";

export interface SeoInput {
  title: string;
  description: string;
  /** Path of the canonical page, starting with "/". */
  path: string;
  siteUrl: string;
  image?: { path: string; alt: string; width: number; height: number };
  type?: "website" | "article" | "video.other" | "product";
}

/** What search engines show of a description; longer ones are cut at a word, with an ellipsis. */
export const DESCRIPTION_MAX = 160;

export function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= DESCRIPTION_MAX) return flat;
  const cut = flat.slice(0, DESCRIPTION_MAX - 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > DESCRIPTION_MAX / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}

export function seo({ title, description: text, path, siteUrl, image, type = "website" }: SeoInput): MetaDescriptor[] {
  const url = `${siteUrl}${path}`;
  const description = shortDescription(text);
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: type },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
  ];
  if (image) {
    tags.push(
      { property: "og:image", content: `${siteUrl}${image.path}` },
      { property: "og:image:width", content: String(image.width) },
      { property: "og:image:height", content: String(image.height) },
      { property: "og:image:alt", content: image.alt },
    );
  }
  return tags;
}

/** The site URL from the root loader, for meta functions. */
export function siteUrlFrom(matches: { id: string; data: unknown }[]): string {
  const root = matches.find((m) => m.id === "root")?.data as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}
