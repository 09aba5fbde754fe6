import type { MetaArgs } from "@remix-run/node";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";

export const FORM_FAILED = "__formFailed";

/**
 * Meta for a page with a form: "Error: " before the title after a failed post; never indexed.
 * `nofollow` for a page whose links only lead back where the reader came from (sign-in, registration).
 */
export function formPageMeta(
  args: Pick<MetaArgs, "data" | "matches">,
  page: { title: string; description: string; path: string; nofollow?: boolean },
) {
  const failed = Boolean((args.data as Record<string, unknown> | undefined)?.[FORM_FAILED]);
  const tags = seo({ ...page, siteUrl: siteUrlFrom(args.matches) });
  return [
    ...tags.map((tag) => ("title" in tag && failed ? { title: `Error: ${tag.title}` } : tag)),
    { name: "robots", content: page.nofollow ? "noindex, nofollow" : "noindex" },
  ];
}
