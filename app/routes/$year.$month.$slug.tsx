import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { addAnnotation, deleteAnnotation } from "~/server/library/annotations";
import { articlePage, type ArticlePageLookup } from "~/server/content/articles";
import { formerArticle } from "~/server/content/article-history";
import { resolveGift } from "~/server/share/gifts";
import { readingListForArticle } from "~/server/content/reading-lists";
import type { WallScreen } from "~/app/components/WallForm";
import { socialCard } from "~/shared/social-cards";
import { ogImage } from "~/shared/uploaded-images";
import { ArticlePage } from "~/app/components/ArticlePage";
import { articlePageView } from "~/app/lib/content/article-page.server";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { articleAddressSchema } from "~/app/lib/content/article-address";
import { noteErrorField, noteSchema } from "~/app/lib/library/notes-form";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { openArticle } from "~/app/lib/paywall/article-access.server";
import { articleReader } from "~/app/lib/context/article-reader.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { redirect } from "~/app/lib/http/responses.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";
import { subscriberTools } from "~/app/lib/paywall/subscriber-tools.server";

const NOTE_NOTICES: Record<string, string> = { added: "Your note has been saved.", deleted: "Your note has been deleted." };

/** The article a URL names; 404 for an address no article could have. */
async function lookUp({ year, month, slug = "" }: LoaderFunctionArgs["params"]): Promise<ArticlePageLookup> {
  if (!articleAddressSchema.safeParse({ year, month, seotitle: slug }).success) {
    throw new Response(null, { status: 404 });
  }
  return articlePage(await db(), Number(year), Number(month), slug);
}

/** No published article has this address: 410 if one was withdrawn, 301 if one moved, else 404. */
async function notHere(
  database: Awaited<ReturnType<typeof db>>,
  { year, month, slug = "" }: LoaderFunctionArgs["params"],
): Promise<Response> {
  const former = await formerArticle(database, Number(year), Number(month), slug);
  if (former.kind === "moved") return redirect(former.url, 301);
  return new Response(null, { status: former.kind === "withdrawn" ? 410 : 404 });
}

export async function loader({ params, request, context: loadContext }: LoaderFunctionArgs) {
  const database = await db();
  const found = await lookUp(params);
  if (found.kind === "missing") throw await notHere(database, params);
  if (found.kind === "moved") throw redirect(found.url, 301);
  const { article } = found.page;

  const url = new URL(request.url);
  const listSlug = url.searchParams.get("list") ?? "";
  const giftToken = url.searchParams.get("gift") ?? "";
  const asking = await articleReader(requestContext({ request, context: loadContext }), request);
  // Only a subscriber sees the whole list (spec section 6).
  const complete = asking.kind === "reader" && asking.reader.kind === "subscriber";
  const [readingList, giftLink] = await Promise.all([
    /^[a-z0-9-]{1,80}$/.test(listSlug) ? readingListForArticle(database, listSlug, article.id, { complete }) : undefined,
    giftToken ? resolveGift(database, giftToken, article.id, { validDays: config().GIFT_LINK_DAYS }) : undefined,
  ]);
  // An expired link opens nothing: the reader meets the wall, and is told why.
  const giftExpired = giftLink === "expired";
  const gift = giftExpired ? undefined : giftLink;
  // A gift link opens the article as it is; anyone else without cookies is asked for one first.
  const access = await openArticle(database, asking, article, {
    readingList: Boolean(readingList),
    gift: Boolean(gift),
    giftExpired,
    firstVisit: "redirect",
  });
  if (access.kind === "first-visit") {
    throw redirect(access.location, { status: 302, headers: { "Set-Cookie": access.setCookie, "Cache-Control": "no-store" } });
  }
  const { context, offer } = access;
  const screen = wallScreen(url.searchParams.get("paywall"));
  const region = offer.wall === "registration" && screen === "registration" ? await visitorRegion(request, loadContext) : "other";
  // Gifting, downloads and notes: only for a subscriber, and only beside the full text.
  const tools =
    context.user && context.subscriber && offer.fullContent ? await subscriberTools(request, database, context.user, article) : null;

  // What a page shows depends on who reads it: never kept by a shared cache. A gift link is kept
  // by no cache at all, and out of search engines.
  const headers = new Headers({ "Cache-Control": gift ? "no-store" : "private, no-cache" });
  if (gift) headers.set("X-Robots-Tag", "noindex");
  if (tools?.setCookie) headers.append("Set-Cookie", tools.setCookie);
  // A signed-in reader's first name and meter go in as marks (ADR 096), so that readers at any count
  // share a kept page; a guest's count stays in the page's key.
  const readerParts = context.user ? requestContext({ request, context: loadContext }).readerParts : null;
  return data(
    articlePageView(loadContext, found.page, {
      offer: { ...offer, screen, region },
      viewer: {
        kind: context.reader.kind,
        firstName: context.user && readerParts ? readerParts.put("firstName", context.user.firstName) : null,
        cookiesRefused: context.cookiesRefused,
      },
      own: readerParts ? (part, value) => readerParts.put(part, value) : undefined,
      readingList: readingList ?? null,
      gift: Boolean(gift),
      giftExpired,
      subscriber: tools && { ...tools.tools, notice: NOTE_NOTICES[url.searchParams.get("note") ?? ""] ?? null },
    }),
    { headers },
  );
}

/** A subscriber adds or deletes a note on this article; anyone else is refused before anything is stored. */
export async function action({ params, request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await currentSubscriber({ request, context });
  if (!user) throw new Response("Notes are for subscribers.", { status: 403 });
  const found = await lookUp(params);
  if (found.kind !== "found") throw new Response(null, { status: 404 });
  const { article } = found.page;
  const database = await db();

  const intent = form.get("intent");
  if (intent === "delete-note") {
    const id = z.string().uuid().safeParse(form.get("noteId"));
    if (!id.success || !(await deleteAnnotation(database, user.id, id.data))) throw new Response("No such note", { status: 404 });
    return redirect(`${article.url}?note=deleted#notes`, 303);
  }
  if (intent !== "add-note") throw new Response("Unknown action", { status: 400 });
  const submission = parseWithZod(form, { schema: noteSchema(article.blocks.length) });
  if (submission.status !== "success") return rejectForm(submission);
  const added = await addAnnotation(database, { userId: user.id, articleId: article.id, ...submission.value });
  if (!added.ok) {
    const field = noteErrorField(added.error);
    return rejectForm(submission, field ? { fieldErrors: { [field]: [added.error] } } : { formErrors: [added.error] });
  }
  return redirect(`${article.url}?note=added#notes`, 303);
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const out = new Headers();
  for (const name of ["Cache-Control", "X-Robots-Tag"]) {
    const value = loaderHeaders.get(name);
    if (value) out.set(name, value);
  }
  return out;
};

function wallScreen(value: string | null): WallScreen {
  return value === "sign-in" || value === "forgot-password" ? value : "registration";
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const { article } = data;
  const siteUrl = siteUrlFrom(matches);
  return [
    ...seo({
      title: article.title,
      description: article.summary,
      path: article.url,
      siteUrl,
      type: "article",
      card: socialCard("article", article.slug, article.title),
      image: article.hero ? ogImage(article.hero, siteUrl) : undefined,
    }),
    { property: "article:published_time", content: article.published },
    { property: "article:section", content: article.topics[0]?.name ?? "" },
    ...article.authors.map((a) => ({ name: "author", content: a.name })),
    ...(data.gift ? [{ name: "robots", content: "noindex, nofollow" }] : []),
  ];
};

export default function ArticleRoute() {
  return <ArticlePage data={useLoaderData<typeof loader>()} noteResult={useActionData<typeof action>()?.result} />;
}
