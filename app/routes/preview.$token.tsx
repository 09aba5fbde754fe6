import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { articlePreview, readPreviewToken } from "~/server/desk/articles/preview";
import { previewOffer } from "~/server/paywall/preview-offers";
import { ARTICLE_STATUS_NAMES } from "~/shared/article-vocabulary";
import { isPreviewView, PREVIEW_VIEWS, type PreviewView } from "~/shared/preview-views";
import { ArticlePage } from "~/app/components/ArticlePage";
import { PreviewBanner } from "~/app/components/desk/PreviewBanner";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { articlePageView } from "~/app/lib/content/article-page.server";
import { db } from "~/app/lib/context/db.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { offerRules } from "~/app/lib/paywall/article-access.server";
import type { RouteHandle } from "~/app/root";

// An article's preview at its private address (ADR 079): the latest save, in any state, through
// the site's own article page, in the view the banner's links choose. Whoever has the link sees
// it, signed in or not; no meter, read, history or analytics hears of it, and no cache keeps it.

export const handle: RouteHandle = { untracked: true };

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const articleId = readPreviewToken(params.token ?? "", new Date());
  if (articleId === null) throw new Response(null, { status: 404 });
  const found = await articlePreview(await db(), articleId);
  if (!found) throw new Response(null, { status: 404 });

  const url = new URL(request.url);
  const asked = url.searchParams.get("view");
  const view: PreviewView = isPreviewView(asked) ? asked : "guest";
  const offer = previewOffer(offerRules(), found.page.article, view);
  const region = offer.wall === "registration" ? await visitorRegion(request, context) : "other";
  const links = Object.fromEntries(PREVIEW_VIEWS.map((v) => [v, v === "guest" ? url.pathname : `${url.pathname}?view=${v}`]));
  return data(
    {
      ...articlePageView(context, found.page, {
        offer: { ...offer, screen: "registration", region },
        viewer: { kind: view === "subscriber" ? "subscriber" : "guest", firstName: null, cookiesRefused: false },
        readingList: null,
        gift: false,
        giftExpired: false,
        subscriber: null,
      }),
      preview: { state: ARTICLE_STATUS_NAMES[found.status].toLowerCase(), view, links: links as Record<PreviewView, string> },
    },
    { headers: { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => {
  const out = new Headers({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" });
  if (errorHeaders) return out;
  for (const name of ["Cache-Control", "X-Robots-Tag"]) out.set(name, loaderHeaders.get(name) ?? out.get(name)!);
  return out;
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Preview: ${data.article.title} | ${SITE_NAME}` : `Preview | ${SITE_NAME}` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function ArticlePreviewRoute() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <PreviewBanner state={data.preview.state} view={data.preview.view} links={data.preview.links} />
      <ArticlePage data={data} />
    </>
  );
}
