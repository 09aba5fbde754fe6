import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { lazy } from "react";
import { z } from "zod";
import { addAnnotation, deleteAnnotation } from "~/server/library/annotations";
import { ARTICLE_ART_SIZE } from "~/shared/art-sizes";
import { articlePage, type ArticlePageData, type ArticlePageLookup } from "~/server/content/articles";
import { formerArticle } from "~/server/content/article-history";
import { resolveGift } from "~/server/share/gifts";
import { readingListForArticle } from "~/server/content/reading-lists";
import { addToCartHref } from "~/shared/add-to-cart-links";
import { ARTICLE_BODY, ArticleBody, GATED_CLASS, type ArticleBodyHtml } from "~/app/components/ArticleBody";
import { RegistrationWall, SubscribeWall } from "~/app/components/Paywall";
import type { WallScreen } from "~/app/components/WallForm";
import { ReadingListLinks } from "~/app/components/reading-lists/ReadingListLinks";
import { ReadingListOverlay } from "~/app/components/reading-lists/ReadingListOverlay";
import { SubscriptionCounter } from "~/app/components/SubscriptionCounter";
import { Carousel } from "~/app/components/Carousel";
import { Deferred } from "~/app/components/Deferred";
import { TextSizeToggle } from "~/app/components/TextSizeToggle";
import { SaveControl } from "~/app/components/library/SaveControl";
import { HelpBox } from "~/app/components/HelpBox";
import { useRootData } from "~/app/lib/http/root-data";
import { socialCard, socialCardPath } from "~/shared/social-cards";
import { ShareControl } from "~/app/components/library/ShareControl";
import { JsonLd } from "~/app/components/JsonLd";
import { ShareLinks } from "~/app/components/ShareLinks";
import { TitleBar } from "~/app/components/TitleBar";
import * as css from "~/app/components/article.css";
// The wall's forms come in a chunk of their own (ADR 013); their styles are linked with the page,
// so a reader without JavaScript (who never loads the chunk) gets them too.
import "~/app/components/forms/forms.css";
import "~/app/components/prose.css";
import * as cards from "~/app/components/cards.css";
import { useTidyCookieCheck } from "~/app/lib/paywall/cookie-check";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { articleAddressSchema } from "~/app/lib/content/article-address";
import { noteErrorField, noteSchema } from "~/app/lib/library/notes-form";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { imageLoading } from "~/app/lib/content/image-loading";
import { keepOutOfHydrationData } from "~/app/lib/context/load-context.server";
import { formatAuthors, formatPublished, formatUsd } from "~/app/lib/content/format";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { articleBodyParts, openArticle } from "~/app/lib/paywall/article-access.server";
import { articleReader } from "~/app/lib/context/article-reader.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { redirect } from "~/app/lib/http/responses.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";
import { subscriberTools } from "~/app/lib/paywall/subscriber-tools.server";

// Subscribers' tools come in a chunk of their own: other readers' pages do not load it.
const SubscriberTools = lazy(() => import("~/app/components/SubscriberTools"));

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
  // The body is in the HTML already: a whole page's hydration data leaves it out (ADR 036).
  const { body, ...view } = articleView(found.page, offer.fullContent);
  const bodyInHtmlOnly = keepOutOfHydrationData(loadContext, ARTICLE_BODY, body);
  return data(
    {
      ...view,
      body: bodyInHtmlOnly ? null : body,
      bodyGated: body.gated !== null,
      siteUrl: config().siteUrl,
      offer: { experience: offer.experience, wall: offer.wall, quota: offer.quota, abTag: offer.abTag, screen, region },
      viewer: { kind: context.reader.kind, firstName: context.user?.firstName ?? null, cookiesRefused: context.cookiesRefused },
      readingList: readingList ?? null,
      gift: Boolean(gift),
      giftExpired,
      subscriber: tools && { ...tools.tools, notice: NOTE_NOTICES[url.searchParams.get("note") ?? ""] ?? null },
    },
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

const views = new WeakMap<ArticlePageData, { full: ArticleView; walled: ArticleView }>();

/** The page's data as the component shows it, made once per cached page (see articlePage). */
function articleView(page: ArticlePageData, fullContent: boolean): ArticleView {
  let made = views.get(page);
  if (!made) views.set(page, (made = { full: toView(page, true), walled: toView(page, false) }));
  return fullContent ? made.full : made.walled;
}

type ArticleView = ReturnType<typeof toView>;

/**
 * The body goes to the page as HTML made on the server from the seed content's Markdown,
 * every text escaped (see blocksToHtml): the free preview, then, only for a reader entitled to
 * it, the rest either side of the store promo. A walled reader's data holds no more of the
 * text than the preview.
 */
function toView({ article, promoAt, ...rest }: ArticlePageData, fullContent: boolean) {
  const { blocks, ...shown } = article;
  const body: ArticleBodyHtml = articleBodyParts({ article, promoAt }, fullContent, { quoteClass: css.pullQuote });
  return { ...rest, article: shown, body };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const { article } = data;
  return [
    ...seo({
      title: article.title,
      description: article.summary,
      path: article.url,
      siteUrl: siteUrlFrom(matches),
      type: "article",
      card: socialCard("article", article.slug, article.title),
    }),
    { property: "article:published_time", content: article.published },
    { property: "article:section", content: article.topics[0]?.name ?? "" },
    ...article.authors.map((a) => ({ name: "author", content: a.name })),
    ...(data.gift ? [{ name: "robots", content: "noindex, nofollow" }] : []),
  ];
};

function jsonLd(data: ReturnType<typeof useLoaderData<typeof loader>>) {
  const { article, siteUrl, bodyGated } = data;
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: article.title,
    description: article.summary,
    datePublished: article.published,
    // Articles are published as they are written: the content is never edited afterwards.
    dateModified: article.published,
    image: [`${siteUrl}${article.image}`, `${siteUrl}${socialCardPath("article", article.slug)}`],
    author: article.authors.map((a) => ({ "@type": "Person", name: a.name })),
    publisher: { "@type": "Organization", name: SITE_NAME, logo: { "@type": "ImageObject", url: `${siteUrl}/favicon.svg` } },
    mainEntityOfPage: `${siteUrl}${article.url}`,
    articleSection: article.topics.map((t) => t.name),
    wordCount: article.wordCount,
    // Metered: the part after the preview is for subscribers and readers with free reads left.
    isAccessibleForFree: false,
    // The gated part is named where it is in the page (a reader with reads left, a subscriber, a
    // verified crawler); where the wall stands in its place there is no part to point at.
    ...(bodyGated ? { hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: `.${GATED_CLASS}` } } : {}),
  };
}

export default function ArticleRoute() {
  const data = useLoaderData<typeof loader>();
  const root = useRootData();
  const { article, related, latest, promo, body, bodyGated, offer, viewer, readingList, subscriber, giftExpired } = data;
  const noteResult = useActionData<typeof action>()?.result;
  useTidyCookieCheck();
  const primary = article.topics[0];
  return (
    <>
      <TitleBar title={article.title} />
      <JsonLd data={jsonLd(data)} />
      <div className={css.layout}>
        <article>
          <header className={css.header}>
            {primary ? (
              <p className={cards.eyebrow}>
                <Link className={cards.eyebrowLink} to={primary.headlineUrl}>
                  {primary.name}
                </Link>
                {article.contentType !== "Article" ? ` · ${article.contentType}` : null}
              </p>
            ) : null}
            <h1 className={css.title}>{article.title}</h1>
            <p className={css.dek}>{article.dek}</p>
            {article.subDek ? <p className={css.subDek}>{article.subDek}</p> : null}
            <p className={css.meta}>
              by {formatAuthors(article.authors)} · <time dateTime={article.published}>{formatPublished(article.published)}</time> ·{" "}
              {Math.max(1, Math.round(article.wordCount / 230))} min read
            </p>
            <img
              className={css.hero}
              src={article.image}
              width={ARTICLE_ART_SIZE.width}
              height={ARTICLE_ART_SIZE.height}
              alt={article.imageAlt ?? `Abstract illustration accompanying “${article.title}”`}
              {...imageLoading(true)}
            />
            <div className={css.tools}>
              <SaveControl type="article" id={article.id} title={article.title} />
              <ShareControl type="article" id={article.id} title={article.title} url={`${data.siteUrl}${article.url}`} />
              <TextSizeToggle />
            </div>
            {root?.user ? (
              <HelpBox id="article-saves" headline="Save it for later">
                Use Save on any article, video or podcast to keep it in your library, sorted into your own folders.
              </HelpBox>
            ) : null}
            <details className={css.summaryBox} open>
              <summary className={css.summaryToggle}>Summary</summary>
              <p>{article.summary}</p>
            </details>
          </header>

          {article.series ? (
            <nav className={css.seriesNav} aria-label="Series">
              <p>
                <strong>{article.series.title}</strong>: part {article.series.part} of {article.series.parts.length}
              </p>
              <ol>
                {article.series.parts.map((p) => (
                  <li key={p.part}>
                    {p.part === article.series!.part ? <span aria-current="page">{p.title}</span> : <Link to={p.url}>{p.title}</Link>}
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}

          {readingList && offer.wall === null ? <ReadingListOverlay list={readingList} open={false} /> : null}
          {offer.quota && offer.wall === null && viewer.kind !== "subscriber" ? (
            <SubscriptionCounter remaining={offer.quota.remaining} abTag={offer.abTag} />
          ) : null}

          {giftExpired ? (
            <p className={css.giftExpired} role="status">
              This gift link has expired.
            </p>
          ) : null}
          <ArticleBody
            key={article.id}
            html={body}
            gated={bodyGated}
            wall={
              offer.wall ? (
                <>
                  {offer.wall === "subscribe" ? (
                    <SubscribeWall firstName={viewer.firstName} abTag={offer.abTag} />
                  ) : (
                    <RegistrationWall
                      articleUrl={article.url}
                      screen={offer.screen}
                      region={offer.region}
                      cookiesRefused={viewer.cookiesRefused}
                    />
                  )}
                  {/* The reading-list paywall: the list the reader came from, with the wall. */}
                  {readingList ? <ReadingListOverlay list={readingList} open /> : null}
                </>
              ) : null
            }
            promo={
              promo ? (
                <aside className={css.promo} aria-label="From the store" data-no-print="">
                  <p className={cards.eyebrow}>{promo.productType}</p>
                  <p>
                    <strong>From the store:</strong> {promo.title} ({promo.format}, {formatUsd(promo.priceCents)}).{" "}
                    <Link to={addToCartHref(promo.url)} rel="nofollow">
                      View Details
                    </Link>
                  </p>
                </aside>
              ) : null
            }
          />

          {subscriber ? (
            <Deferred>
              <SubscriberTools articleUrl={article.url} tools={subscriber} notice={subscriber.notice} noteResult={noteResult} />
            </Deferred>
          ) : null}

          <div className={css.share} data-no-print="">
            <ShareLinks
              type="article"
              id={article.id}
              url={`${data.siteUrl}${article.url}`}
              title={article.title}
              heading="Share this article"
            />
          </div>

          <section aria-labelledby="about-authors">
            <h2 id="about-authors" className={css.asideBlock}>
              About the {article.authors.length > 1 ? "authors" : "author"}
            </h2>
            {article.authors.map((a) => (
              <p key={a.name}>
                <strong>{a.name}</strong> is {a.role.charAt(0).toLowerCase() + a.role.slice(1)}. {a.bio}
              </p>
            ))}
          </section>
        </article>

        <aside className={css.aside} aria-label="Related">
          {article.readingLists.length > 0 ? (
            <section className={css.asideBlock}>
              <h2 className={cards.eyebrow}>THIS ARTICLE APPEARS IN</h2>
              <ReadingListLinks lists={article.readingLists} className={css.asideList} />
            </section>
          ) : null}
          {related.length > 0 && primary ? (
            <section className={css.asideBlock}>
              <h2 className={cards.eyebrow}>More in {primary.name}</h2>
              <ul className={css.asideList}>
                {related.map((r) => (
                  <li key={r.id}>
                    <Link to={r.url}>{r.title}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section className={css.asideBlock}>
            <h2 className={cards.eyebrow}>Topics</h2>
            <ul className={css.asideList}>
              {article.topics.map((t) => (
                <li key={t.url}>
                  <Link to={t.url}>{t.name}</Link>
                </li>
              ))}
            </ul>
          </section>
        </aside>
      </div>
      <Carousel title="The Latest" cards={latest} />
    </>
  );
}
