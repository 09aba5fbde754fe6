import { z } from "zod";
import { MAX_PAGE } from "~/shared/pagination";
import { SEARCH_KINDS } from "~/shared/search-kinds";
import { FIRST_YEAR, MAX_QUERY_LENGTH } from "~/shared/search-query";
import { REQUIRED } from "~/app/lib/forms/messages";
import { articleAddressSchema } from "~/app/lib/content/article-address";
import { giftSchema } from "~/app/lib/paywall/gift-form";
import { NO_GIFTS_LEFT } from "~/app/lib/paywall/gift-messages";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";

// Articles and streams (spec 7): an article's text as the reader may see it, gift links, and the
// paged streams of cards (named streams, followed topics, search, the reader's history and
// library, the magazine, the reader's orders, the topic directory).

// ---- The article content service ----

export const articleQuery = articleAddressSchema.extend({ language: z.string().max(10).optional() });

/** The page's call carries these; the article is named by the query, so they change nothing. */
export const articleContentBody = z.object({
  key: z.string().max(2000).optional(),
  contentKey: z.string().max(200).optional(),
  pageSlug: z.string().max(300).optional(),
  pageAdUnitLocations: z.unknown().optional(),
});

export const articleQuotaSchema = z.object({ limit: z.number().int(), count: z.number().int(), remaining: z.number().int() });

export const articleContentSchema = z.object({
  /** The reader's id as the analytics data layer gives it; null for a guest. */
  guid: z.string().nullable(),
  /** The body's HTML: all of it for an entitled reader, else only the free preview. */
  content: z.string(),
  /** The meter this read was counted on, after counting; null when no meter applies (a subscriber, a gift). */
  quota: articleQuotaSchema.nullable(),
  /** Whether `content` is the whole article, and which wall stands in front of the rest if not. */
  fullContent: z.boolean(),
  wall: z.union([z.literal("registration"), z.literal("subscribe")]).nullable(),
  experience: z.string(),
});

export const articleContent = endpoint({
  method: "post",
  operationId: "getArticleContent",
  path: "/api/article/piano/content",
  summary:
    "An article's text as the caller may read it, deciding access exactly as the article page does: a full read counts on the reader's meter; a walled reader gets only the free preview.",
  tag: "Articles",
  access: "public",
  query: articleQuery,
  body: articleContentBody,
  answers: {
    200: {
      description: "The article's content for this reader (a first call without cookies sets the visitor cookie and gets the preview).",
      schema: articleContentSchema,
    },
    404: { description: "No article at this address.", schema: apiErrorSchema },
  },
});

export const articleComponent = endpoint({
  method: "get",
  operationId: "getArticleComponent",
  path: "/service/components/article/{year}/{month}/{seo}",
  summary:
    "The article at /{year}/{month}/{seo} as the caller may read it, the same answer as POST /api/article/piano/content: access is decided as the article page decides it, and a full read counts on the reader's meter as opening the page does.",
  tag: "Articles",
  access: "public",
  params: z.object({
    year: articleAddressSchema.shape.year,
    month: articleAddressSchema.shape.month,
    seo: articleAddressSchema.shape.seotitle,
  }),
  answers: articleContent.answers,
});

// ---- Gift links ----

export const giftLinkSchema = z.object({
  /** The article's address with the gift token: it opens the article in full for anyone, for a limited time. */
  articleGiftURL: z.string(),
  articleGiftsLeft: z.number().int(),
});

export const giveGift = endpoint({
  method: "post",
  operationId: "giveGift",
  path: "/api/article-gift/give-gift",
  summary:
    "Makes a gift link for an article (`url`: its path or its address on this site), taking one of the subscriber's gifts for this month, as the article page's gift box does.",
  tag: "Articles",
  access: "subscriber",
  body: giftSchema,
  answers: {
    200: { description: "The new link, and how many gifts are left this month.", schema: giftLinkSchema },
    404: { description: "No article at that address on this site; no gift was taken.", schema: apiErrorSchema },
    409: {
      description: `This month's gifts are used ("${NO_GIFTS_LEFT}"); no link was made.`,
      schema: apiErrorSchema.extend({ articleGiftsLeft: z.literal(0) }),
    },
  },
});

// ---- Streams ----

const pageNumber = z
  .string()
  .regex(/^\d{1,7}$/, "The page number must be a whole number from 1.")
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_PAGE, `The page number must be from 1 to ${MAX_PAGE}.`);
/** Any size from 1 is taken; a stream gives no more entries a page than its page shows (the answer's `page.size`). */
const pageSizeParam = z
  .string()
  .regex(/^\d{1,4}$/, "The page size must be a whole number from 1.")
  .transform(Number)
  .refine((n) => n >= 1, "The page size must be a whole number from 1.");

export const pagingParams = z.object({ number: pageNumber, size: pageSizeParam });

const format = z.enum(["json"]).optional();

export const streamEntrySchema = z.object({
  /** Article, video, podcast episode, issue or product id, as `contentType` says. */
  id: z.number().int(),
  title: z.string(),
  url: z.string(),
  /** The dek: a card's summary, or a search result's snippet (preview text only unless the reader subscribes). */
  summary: z.string(),
  authors: z.array(z.string()),
  /** Published (cards, search), or when the reader read or saved it (history, library). */
  date: z.string().nullable(),
  contentType: z.string(),
  image: z.string().nullable(),
  topic: z.object({ name: z.string(), url: z.string() }).nullable(),
  /** A library item's id (saves and folders), for the library's own calls. */
  itemId: z.string().optional(),
  /** A magazine issue's "Featuring" list: the titles of its feature articles, in order. */
  featuring: z.array(z.string()).optional(),
});

export const streamSchema = z.object({
  entries: z.array(streamEntrySchema),
  page: z.object({
    number: z.number().int(),
    size: z.number().int(),
    last: z.number().int(),
    total: z.number().int(),
  }),
  type: z.string(),
  /** False for a subscriber, whom no wall stops. */
  isPaywallEnabled: z.boolean(),
  maintenanceStatus: z.boolean(),
});

const money = z.object({ cents: z.number().int(), formatted: z.string() });

/** An entry of the reader's purchase history: a store order, or a subscription (its title holds "#S"). */
export const orderEntrySchema = streamEntrySchema.omit({ itemId: true, featuring: true }).extend({
  /** The order's id, or the subscription checkout's. */
  id: z.string(),
  contentType: z.enum(["order", "subscription"]),
  orderStatus: z.enum(["PURCHASED", "CANCELLED"]),
  /** The order's first line items (at most five; `itemCount` counts them all); none for a subscription. */
  lineItems: z.array(
    z.object({
      title: z.string(),
      contentType: z.string(),
      authors: z.array(z.string()),
      /** A coming-soon item's date ("Available {date}"); null once it is out. */
      availableDate: z.string().nullable(),
    }),
  ),
  grandTotalIncTax: money,
  itemCount: z.number().int(),
  /** The files of a paid order the reader may download now (expired case studies left out). */
  downloads: z.array(z.object({ link: z.string(), format: z.string(), title: z.string() })),
  hasDownloads: z.boolean(),
  /** A subscription's account number, to quote to customer service; null for an order. */
  accountNumber: z.string().nullable(),
});

export const orderedStreamSchema = streamSchema.extend({ entries: z.array(orderEntrySchema) });

const streamAnswers = (extra: string, schema: z.ZodTypeAny = streamSchema) => ({
  200: { description: `One page of the stream${extra}.`, schema },
  404: { description: "A page past the last one, or no such stream or folder.", schema: apiErrorSchema },
});

/** The spec's stream names; `latest`, the default stream, is The Latest (/the-latest): everything, newest first. */
export const NAMED_STREAMS = ["latest", "webinars", "visual-library", "hbr-analytic-services", "ascend"] as const;

export const namedStream = endpoint({
  method: "get",
  operationId: "getNamedStream",
  path: "/service/{stream}/{number}/{size}",
  summary:
    "A page of a named stream (latest, the default: everything; webinars, visual library, analytic services, Ascend), newest first, as its page lists it.",
  tag: "Streams",
  access: "public",
  params: pagingParams.extend({ stream: z.enum(NAMED_STREAMS, { message: `The stream is one of ${NAMED_STREAMS.join(", ")}.` }) }),
  query: z.object({ format }),
  answers: {
    ...streamAnswers(""),
    503: { description: "The site is in maintenance: no entries, `maintenanceStatus` true.", schema: streamSchema },
  },
});

export const followingStream = endpoint({
  method: "get",
  operationId: "getFollowingStream",
  path: "/service/components/myhbr/following/{number}/{size}",
  summary: 'The newest articles in the topics the reader follows, or in one of them (`filter`: its name, "R&D" sent as "RD").',
  tag: "Streams",
  access: "reader",
  params: pagingParams,
  query: z.object({ format, filter: z.string().max(200).optional() }),
  answers: streamAnswers(" (a filter naming no topic the reader follows is a 404)"),
});

const searchQuery = z.object({
  format,
  q: z.string().max(500).optional(),
  type: z.string().max(40).optional(),
  topic: z.string().max(80).optional(),
  from: z.string().max(4).optional(),
  to: z.string().max(4).optional(),
  sort: z.string().max(20).optional(),
  referral: z.string().max(40).optional(),
});

export const searchStream = endpoint({
  method: "get",
  operationId: "getSearchStream",
  path: "/service/search/{number}/{size}",
  summary: "A page of search results, the query string read as the search page reads it (q, type repeated, topic, from, to, sort).",
  tag: "Streams",
  access: "public",
  params: pagingParams,
  query: searchQuery,
  answers: streamAnswers(" (no entries without a query)"),
});

export const searchMoreResults = endpoint({
  method: "get",
  operationId: "getSearchMoreResults",
  path: "/service/search/more-results/{number}/{size}",
  summary: "Search's “more results”: the same results, their store links carrying the search referral code.",
  tag: "Streams",
  access: "public",
  params: pagingParams,
  query: searchQuery,
  answers: streamAnswers(" (no entries without a query)"),
});

const searchYear = z
  .number({ invalid_type_error: `The year is a whole number from ${FIRST_YEAR}.` })
  .int(`The year is a whole number from ${FIRST_YEAR}.`)
  .min(FIRST_YEAR, `The year is a whole number from ${FIRST_YEAR}.`)
  .max(2100, "The year must be at most 2100.");

const searchBody = z.object({
  queryString: z
    .string({ required_error: REQUIRED, invalid_type_error: REQUIRED })
    .max(MAX_QUERY_LENGTH, `The search must be at most ${MAX_QUERY_LENGTH} characters.`)
    .describe("What the reader typed, as the search box takes it."),
  filters: z
    .object({
      type: z
        .array(z.enum(SEARCH_KINDS, { errorMap: () => ({ message: `The type is one of ${SEARCH_KINDS.join(", ")}.` }) }))
        .max(SEARCH_KINDS.length)
        .optional()
        .describe("The kinds of content to find (none: every kind)."),
      topic: z
        .string()
        .regex(/^[a-z0-9-]{1,80}$/, "The topic is a topic's slug, as in its page's address.")
        .optional(),
      from: searchYear.optional().describe("The first year published."),
      to: searchYear.optional().describe("The last year published."),
    })
    .refine((f) => f.from === undefined || f.to === undefined || f.from <= f.to, {
      message: "The first year must not come after the last.",
      path: ["to"],
    })
    .default({}),
  sort: z.enum(["relevance", "newest"], { errorMap: () => ({ message: "Please sort by relevance or newest." }) }).default("relevance"),
  order: z
    .enum(["desc"], { errorMap: () => ({ message: "Results come best or newest first: the order is desc." }) })
    .default("desc")
    .describe("Best (relevance) or newest first; the only order search offers."),
  page: z.number().int().min(1).max(MAX_PAGE).default(1),
  size: z.number().int().min(1).max(1000).default(10).describe("Entries a page; a page holds at most 10."),
});

export const searchPost = endpoint({
  method: "post",
  operationId: "search",
  path: "/service/search",
  summary:
    "Search (spec: queryString, filters, sort, order), with the search page's engine and snippets: gated text shows in a snippet only for a subscriber. Unlike the page's lenient query string, a filter that makes no sense is refused.",
  tag: "Streams",
  access: "public",
  body: searchBody,
  answers: streamAnswers(" (no entries without a query)"),
});

export const historyStream = endpoint({
  method: "get",
  operationId: "getHistoryStream",
  path: "/service/user/history/{number}/{size}",
  summary: "The reader's reading history: the articles they opened while signed in, the latest first.",
  tag: "Streams",
  access: "reader",
  params: pagingParams,
  query: z.object({ format }),
  answers: streamAnswers(""),
});

export const savesStream = endpoint({
  method: "get",
  operationId: "getSavesStream",
  path: "/service/user/saves/{number}/{size}",
  summary: "Everything the reader saved to their library, the latest first.",
  tag: "Streams",
  access: "reader",
  params: pagingParams,
  query: z.object({ format }),
  answers: streamAnswers(""),
});

export const folderStream = endpoint({
  method: "get",
  operationId: "getFolderStream",
  path: "/service/user/list/{id}/{number}/{size}",
  summary: "What one of the reader's own library folders holds, the latest first (another reader's folder is a 404).",
  tag: "Streams",
  access: "reader",
  params: pagingParams.extend({ id: z.string().min(1).max(80) }),
  query: z.object({ format }),
  answers: streamAnswers(""),
});

/** Spec 9: a list with a page-size attribute shows 10 entries a page; the magazine and topics give no more. */
export const DIRECTORY_PAGE_SIZE = 10;

export const magazineStream = endpoint({
  method: "get",
  operationId: "getMagazineStream",
  path: "/service/magazine/{number}/{size}",
  summary: `The magazine's issues, newest first, as the magazine archive lists them: cover, title, summary and "Featuring" list (at most ${DIRECTORY_PAGE_SIZE} a page).`,
  tag: "Streams",
  access: "public",
  params: pagingParams,
  query: z.object({ format }),
  answers: streamAnswers(""),
});

export const orderedStream = endpoint({
  method: "get",
  operationId: "getOrderedStream",
  path: "/service/ordered/{number}/{size}",
  summary:
    "The reader's purchase history, newest first, as my library's purchase history lists it: store orders (Purchased or Cancelled) with their items, total and downloads, and subscriptions.",
  tag: "Streams",
  access: "reader",
  params: pagingParams,
  query: z.object({ format }),
  answers: {
    ...streamAnswers("", orderedStreamSchema),
    503: { description: "The store is in maintenance: no entries, `maintenanceStatus` true.", schema: orderedStreamSchema },
  },
});

export const topicsStream = endpoint({
  method: "get",
  operationId: "getTopicsStream",
  path: "/service/topics/{number}/{size}",
  summary: `The topic directory as /topics lists it, each subject by name followed by its topics by name: each one's name, page and description (at most ${DIRECTORY_PAGE_SIZE} a page).`,
  tag: "Streams",
  access: "public",
  params: pagingParams,
  query: z.object({ format }),
  answers: streamAnswers(""),
});

export const endpoints = [
  articleContent,
  articleComponent,
  giveGift,
  namedStream,
  followingStream,
  searchStream,
  searchMoreResults,
  searchPost,
  historyStream,
  savesStream,
  folderStream,
  magazineStream,
  orderedStream,
  topicsStream,
];
