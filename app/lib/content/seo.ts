import type { MetaDescriptor } from "@remix-run/react";
import { SOCIAL_CARD_SIZE } from "~/shared/art-sizes";
import { HOME_CARD } from "~/shared/social-cards";
import type { OgImage } from "~/shared/uploaded-images";
import { SITE_NAME } from "~/app/lib/forms/cross-site";

export interface SeoInput {
  title: string;
  description: string;
  /** Path of the canonical page, starting with "/". */
  path: string;
  siteUrl: string;
  /**
   * The page's social card (shared/social-cards.ts): a PNG of SOCIAL_CARD_SIZE, and its alt
   * text. A page that names none is shared with the site's own.
   */
  card?: { path: string; alt: string };
  /** An uploaded image (ogImage in shared/uploaded-images.ts): shared in the card's place. */
  image?: OgImage;
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

export function seo({ title, description: text, path, siteUrl, card = HOME_CARD, image, type = "website" }: SeoInput): MetaDescriptor[] {
  const url = `${siteUrl}${path}`;
  const description = shortDescription(text);
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const shared = image ?? { url: `${siteUrl}${card.path}`, type: "image/png", ...SOCIAL_CARD_SIZE, alt: card.alt };
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: type },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    // Facebook, X and LinkedIn show a PNG or JPEG, never SVG; at 1.91:1 they show it large.
    { property: "og:image", content: shared.url },
    { property: "og:image:type", content: shared.type },
    { property: "og:image:width", content: String(shared.width) },
    { property: "og:image:height", content: String(shared.height) },
    { property: "og:image:alt", content: shared.alt },
    { name: "twitter:card", content: "summary_large_image" },
    // X reads og:image too; naming it again keeps its card to the same picture whatever it prefers.
    { name: "twitter:image", content: shared.url },
    { name: "twitter:image:alt", content: shared.alt },
  ];
}

/** The site URL from the root loader, for meta functions. */
export function siteUrlFrom(matches: { id: string; data: unknown }[]): string {
  const root = matches.find((m) => m.id === "root")?.data as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}
