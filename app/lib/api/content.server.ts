import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { archiveYears, issuesOfYear } from "~/server/content/archive";
import type { ArticleCard } from "~/server/content/article-cards";
import { articlePage } from "~/server/content/articles";
import type { Database } from "~/server/db/connection";
import type { ContentItem } from "~/server/library/content";
import { listFolders } from "~/server/library/folders";
import { HISTORY_PAGE_SIZE, viewHistory } from "~/server/library/history";
import { LIBRARY_PAGE_SIZE, libraryItems } from "~/server/library/items";
import type { SearchResult } from "~/server/search";
import { downloadsForOrder } from "~/server/store/downloads";
import { storeMaintenance } from "~/server/store/maintenance";
import { purchaseHistory, type PurchaseEntry } from "~/server/store/purchase-history";
import { pageSize, STREAM_PAGES } from "~/server/content/streams";
import { listTopics, topicBySlug, topicDirectory } from "~/server/content/topics";
import { lastPage, type Paging } from "~/shared/pagination";
import { REFERRAL_SEARCH_MORE_RESULTS } from "~/shared/referrals";
import type { SearchForm } from "~/shared/search-form";
import { normaliseQuery } from "~/shared/search-query";
import * as css from "~/app/components/article.css";
import { articleBodyParts, openArticle } from "~/app/lib/paywall/article-access.server";
import { config, db } from "~/app/lib/context/db.server";
import { FOLLOWING_PAGE_SIZE, loadFollowing } from "~/app/lib/library/following.server";
import { NO_GIFTS_LEFT } from "~/app/lib/paywall/gift-messages";
import { giveGift } from "~/app/lib/paywall/gifts.server";
import { runSearch, searchFor, SEARCH_PAGE_SIZE } from "~/app/lib/search/page.server";
import { namedStreamPage } from "~/app/lib/content/stream-page.server";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";
import { fieldError, money } from "./cart.server";
import { DIRECTORY_PAGE_SIZE } from "./groups/content";
import type * as content from "./groups/content";
import { apiError, apiJson, type Call } from "./handler.server";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";
import { articleReader } from "~/app/lib/context/article-reader.server";

// The content group's handlers (app/lib/api/groups/content.ts): the same functions the article,
// gift, stream, search, following, library, magazine, purchase history and topics pages use.

type Entry = z.infer<typeof content.streamEntrySchema>;
type OrderEntry = z.infer<typeof content.orderEntrySchema>;
type StreamBody<E> = Omit<z.infer<typeof content.streamSchema>, "entries"> & { entries: E[] };
type PageInfo = { number: number; size: number; last: number; total: number };

const noSuchPage = () => apiError(404, "not_found", "There is no such page of this stream.");

/** An article's text as the caller may read it, the read counted as the article page counts it. */
async function articleForCaller(
  request: Request,
  context: AppLoadContext,
  address: { year: string; month: string; seotitle: string },
): Promise<Response> {
  const database = await db();
  const found = await articlePage(database, Number(address.year), Number(address.month), address.seotitle);
  if (found.kind === "missing") return apiError(404, "not_found", "No article at this address.");
  if (found.kind === "moved") return apiError(404, "moved", `This article has moved to ${found.url}.`);
  const { article } = found.page;
  const access = await openArticle(database, await articleReader(requestContext({ request, context }), request), article, {
    readingList: false,
    gift: false,
    giftExpired: false,
    firstVisit: "wall",
  });
  if (access.kind !== "open") throw new Error("a first visit is walled, not redirected");
  const { context: who, offer } = access;
  const body = articleBodyParts(found.page, offer.fullContent, { quoteClass: css.pullQuote });
  const headers = new Headers();
  if (access.setCookie) headers.append("Set-Cookie", access.setCookie);
  return apiJson(
    {
      guid: who.user?.id ?? null,
      content: body.preview + (body.gated ? body.gated.beforePromo + body.gated.afterPromo : ""),
      quota: offer.quota && { limit: offer.quota.limit, count: offer.quota.count, remaining: offer.quota.remaining },
      fullContent: offer.fullContent,
      wall: offer.wall,
      experience: offer.experience,
    } satisfies z.infer<typeof content.articleContentSchema>,
    { headers },
  );
}

/** POST /api/article/piano/content?year=&month=&seotitle=: the article named by the query. */
export function articleContentAnswer({ request, context, query }: Call<typeof content.articleContent>): Promise<Response> {
  return articleForCaller(request, context, query);
}

/** GET /service/components/article/{year}/{month}/{seo}: the article named by the path. */
export function articleComponentAnswer({ request, context, params }: Call<typeof content.articleComponent>): Promise<Response> {
  return articleForCaller(request, context, { year: params.year, month: params.month, seotitle: params.seo });
}

/** POST /api/article-gift/give-gift: a gift link, by the rule the article page's gift form keeps. */
export async function giveGiftAnswer({ body, user }: Call<typeof content.giveGift>): Promise<Response> {
  const outcome = await giveGift(user, body.url);
  if (outcome.kind === "unknown-article") return apiError(404, "not_found", "That article could not be found.");
  if (outcome.kind === "none-left") return apiError(409, "no_gifts_left", NO_GIFTS_LEFT, { articleGiftsLeft: 0 });
  return apiJson({ articleGiftURL: outcome.giftUrl, articleGiftsLeft: outcome.giftsLeft } satisfies z.infer<typeof content.giftLinkSchema>);
}

const cardEntry = (c: ArticleCard): Entry => ({
  id: c.id,
  title: c.title,
  url: c.url,
  summary: c.summary,
  authors: c.authors.map((a) => a.name),
  date: c.published,
  contentType: c.contentType,
  image: c.image || null,
  topic: c.topic,
});

const itemEntry = (item: ContentItem, date: string, itemId?: string): Entry => ({
  id: item.id,
  title: item.title,
  url: item.url,
  summary: item.summary,
  authors: item.authors.map((a) => a.name),
  date,
  contentType: item.contentType,
  image: item.image || null,
  topic: item.topic,
  ...(itemId ? { itemId } : {}),
});

const searchEntry = (r: SearchResult): Entry => ({
  id: r.id,
  title: r.title,
  url: r.url,
  summary: r.snippet.map((p) => p.text).join(""),
  authors: [],
  date: r.published,
  contentType: r.label,
  image: r.image || null,
  topic: null,
});

/** The spec's stream answer: cards, or (the reader's orders) order entries. */
async function streamAnswer<E extends Entry | OrderEntry>(
  { request, context }: RequestArgs,
  type: string,
  entries: E[],
  page: PageInfo,
  maintenance = false,
  status = 200,
): Promise<Response> {
  const isPaywallEnabled = !(await currentSubscriber({ request, context }));
  return apiJson({ entries, page, type, isPaywallEnabled, maintenanceStatus: maintenance } satisfies StreamBody<E>, { status });
}

const paging = (number: number): Paging => ({ page: number, loaded: 1 });
const pageInfo = (p: { number: number; size: number; last: number; total: number }): PageInfo => ({
  number: p.number,
  size: p.size,
  last: p.last,
  total: p.total,
});

/** GET /service/{stream}/{number}/{size}: a named stream, as its page loads it (maintenance included). */
export async function namedStreamAnswer({ request, context, params }: Call<typeof content.namedStream>): Promise<Response> {
  const stream = STREAM_PAGES[params.stream === "latest" ? "the-latest" : params.stream]!;
  const size = Math.min(params.size, pageSize(stream));
  const page = await namedStreamPage(stream, paging(params.number), size);
  if (page === "maintenance")
    return streamAnswer({ request, context }, params.stream, [], { number: params.number, size, last: 1, total: 0 }, true, 503);
  if (page === "past-end") return noSuchPage();
  return streamAnswer({ request, context }, params.stream, page.entries.map(cardEntry), pageInfo(page.page));
}

/** GET /service/components/myhbr/following/{number}/{size}: the followed topics' stream, as the page loads it (and marked seen). */
export async function followingAnswer({ request, context, params, query, user }: Call<typeof content.followingStream>): Promise<Response> {
  const size = Math.min(params.size, FOLLOWING_PAGE_SIZE);
  const following = await loadFollowing(await db(), user.id, query.filter ?? null, paging(params.number), size);
  if (following === "unknown-filter") return apiError(404, "not_found", "You do not follow a topic of that name.");
  if (following === "past-end") return noSuchPage();
  return streamAnswer({ request, context }, "following", following.stream.entries.map(cardEntry), pageInfo(following.stream.page));
}

/** GET /service/search[/more-results]/{number}/{size}: search results, read from the query string as the page reads it. */
export async function searchAnswer(
  { request, context, params }: Call<typeof content.searchStream>,
  moreResults: boolean,
): Promise<Response> {
  const url = new URL(request.url);
  // The page number comes from the path, not from a `page` in the query.
  const search = new URLSearchParams(url.searchParams);
  search.set("page", String(params.number));
  search.delete("loaded");
  const size = Math.min(params.size, SEARCH_PAGE_SIZE);
  const found = await runSearch({ request, context }, search, size, moreResults ? REFERRAL_SEARCH_MORE_RESULTS : undefined);
  const type = moreResults ? "search/more-results" : "search";
  if (!found.results) return streamAnswer({ request, context }, type, [], { number: params.number, size, last: 1, total: 0 });
  if (params.number > found.results.page.last) return noSuchPage();
  return streamAnswer({ request, context }, type, found.results.entries.map(searchEntry), pageInfo(found.results.page));
}

/** POST /service/search: the body read into the search page's form, and searched as the page searches. */
export async function searchPostAnswer({ request, context, body }: Call<typeof content.searchPost>): Promise<Response> {
  const size = Math.min(body.size, SEARCH_PAGE_SIZE);
  if (body.filters.topic !== undefined && !(await topicBySlug(await db(), body.filters.topic)))
    return fieldError("filters.topic", "No topic has this slug.");
  const form: SearchForm = {
    q: normaliseQuery(body.queryString),
    types: body.filters.type ?? [],
    topic: body.filters.topic ?? null,
    from: body.filters.from ?? null,
    to: body.filters.to ?? null,
    sort: body.sort,
  };
  const found = await searchFor({ request, context }, form, { page: body.page, loaded: 1 }, size, null);
  if (!found.results) return streamAnswer({ request, context }, "search", [], { number: body.page, size, last: 1, total: 0 });
  if (body.page > found.results.page.last) return noSuchPage();
  return streamAnswer({ request, context }, "search", found.results.entries.map(searchEntry), pageInfo(found.results.page));
}

/** GET /service/user/history/{number}/{size}: the reader's reading history, as the page lists it. */
export async function historyAnswer({ request, context, params, user }: Call<typeof content.historyStream>): Promise<Response> {
  const size = Math.min(params.size, HISTORY_PAGE_SIZE);
  const { entries, total } = await viewHistory(await db(), user.id, "article", params.number, size);
  const last = lastPage(total, size);
  if (params.number > last) return noSuchPage();
  return streamAnswer(
    { request, context },
    "user/history",
    entries.map((e) => itemEntry(e.item, e.at)),
    { number: params.number, size, last, total },
  );
}

/** GET /service/user/saves/{number}/{size} and /service/user/list/{id}/{number}/{size}: the reader's library, all or one of their folders. */
export async function libraryAnswer(
  { request, context }: RequestArgs,
  userId: string,
  folder: string | null,
  number: number,
  requested: number,
): Promise<Response> {
  const database = await db();
  let folderId: string | null = null;
  if (folder !== null) {
    const own = (await listFolders(database, userId)).find((f) => f.id === folder || f.slug === folder);
    if (!own) return apiError(404, "not_found", "You have no folder of that id.");
    folderId = own.id;
  }
  const size = Math.min(requested, LIBRARY_PAGE_SIZE);
  const { items, total } = await libraryItems(database, userId, folderId, number, size);
  const last = lastPage(total, size);
  if (number > last) return noSuchPage();
  return streamAnswer(
    { request, context },
    folder === null ? "user/saves" : "user/list",
    items.map((i) => itemEntry(i.item, i.savedAt, i.id)),
    { number, size, last, total },
  );
}

type Issue = Awaited<ReturnType<typeof issuesOfYear>>[number];

const issueEntry = (issue: Issue): Entry => ({
  id: issue.id,
  title: issue.title,
  url: issue.url,
  summary: issue.summary,
  authors: [],
  date: `${issue.year}-${String(issue.month).padStart(2, "0")}-01`,
  contentType: "Magazine issue",
  image: issue.cover,
  topic: null,
  featuring: issue.featuring.map((f) => f.title),
});

/**
 * One page of every issue, newest first, read as the magazine page reads them: the archive's
 * list of issues says which are on the page, and each year it touches is loaded as its page is.
 */
async function magazineIssues(database: Database, number: number, size: number): Promise<{ issues: Issue[]; total: number }> {
  const newestFirst = (await archiveYears(database)).flatMap((y) =>
    [...y.issues].reverse().map((i) => ({ year: y.yearId, url: i.issueURL })),
  );
  const onPage = newestFirst.slice((number - 1) * size, number * size);
  const years = await Promise.all([...new Set(onPage.map((i) => i.year))].map((year) => issuesOfYear(database, year)));
  const byUrl = new Map(years.flat().map((issue) => [issue.url, issue]));
  return { issues: onPage.map((i) => byUrl.get(i.url)!), total: newestFirst.length };
}

/** GET /service/magazine/{number}/{size}: the magazine's issues, newest first, as the archive shows them. */
export async function magazineAnswer({ request, context, params }: Call<typeof content.magazineStream>): Promise<Response> {
  const size = Math.min(params.size, DIRECTORY_PAGE_SIZE);
  const { issues, total } = await magazineIssues(await db(), params.number, size);
  const last = lastPage(total, size);
  if (params.number > last) return noSuchPage();
  return streamAnswer({ request, context }, "magazine", issues.map(issueEntry), { number: params.number, size, last, total });
}

/** An order as the purchase history lists it, with the downloads its order page offers. */
async function orderEntry(database: Database, e: PurchaseEntry): Promise<OrderEntry> {
  const downloads = e.kind === "order" ? (await downloadsForOrder(database, e.id)).filter((d) => !d.expired) : [];
  return {
    id: e.id,
    title: e.title,
    url: e.href,
    summary: "",
    authors: [],
    date: e.at,
    contentType: e.kind,
    image: null,
    topic: null,
    orderStatus: e.status === "Cancelled" ? "CANCELLED" : "PURCHASED",
    lineItems: e.lines.map((l) => ({
      title: l.title,
      contentType: l.contentType,
      authors: l.authors ? l.authors.split(", ") : [],
      availableDate: l.availableDate,
    })),
    grandTotalIncTax: money(e.totalCents),
    itemCount: e.lines.length + e.moreLines,
    downloads: downloads.map((d) => ({ link: d.href, format: d.format, title: d.title })),
    hasDownloads: downloads.length > 0,
    accountNumber: e.accountNumber,
  };
}

/** GET /service/ordered/{number}/{size}: the reader's own purchase history, closed as the page is during store maintenance. */
export async function orderedAnswer({ request, context, params, user }: Call<typeof content.orderedStream>): Promise<Response> {
  const size = Math.min(params.size, HISTORY_PAGE_SIZE);
  if (storeMaintenance(config()).closed)
    return streamAnswer({ request, context }, "ordered", [], { number: params.number, size, last: 1, total: 0 }, true, 503);
  const database = await db();
  const { entries, total } = await purchaseHistory(database, user.id, params.number, size);
  const last = lastPage(total, size);
  if (params.number > last) return noSuchPage();
  const orders = await Promise.all(entries.map((e) => orderEntry(database, e)));
  return streamAnswer({ request, context }, "ordered", orders, { number: params.number, size, last, total });
}

/** GET /service/topics/{number}/{size}: the topic directory as /topics lists it, each subject followed by its topics. */
export async function topicsAnswer({ request, context, params }: Call<typeof content.topicsStream>): Promise<Response> {
  const size = Math.min(params.size, DIRECTORY_PAGE_SIZE);
  const topics = topicDirectory(await listTopics(await db())).flatMap(({ subject, topics }) => [subject, ...topics]);
  const last = lastPage(topics.length, size);
  if (params.number > last) return noSuchPage();
  const onPage = topics.slice((params.number - 1) * size, params.number * size);
  return streamAnswer(
    { request, context },
    "topics",
    onPage.map((t) => ({
      id: t.id,
      title: t.name,
      url: t.url,
      summary: t.description,
      authors: [],
      date: null,
      contentType: "Topic",
      image: null,
      topic: null,
    })),
    { number: params.number, size, last, total: topics.length },
  );
}
