import { z } from "zod";
import { MAX_PAGE } from "../../../../shared/pagination";
import { articleAddressSchema } from "../../forms/article";
import { apiErrorSchema, endpoint } from "../contract";

// Articles and streams (spec 7): an article's text as the reader may see it, and the paged
// streams of cards (named streams, followed topics, search, the reader's history and library).

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
  wall: z.union([z.enum(["registration", "subscribe"]), z.null()]),
  experience: z.string(),
});

export const articleContent = endpoint({
  method: "post",
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

const streamAnswers = (extra: string) => ({
  200: { description: `One page of the stream${extra}.`, schema: streamSchema },
  404: { description: "A page past the last one, or no such stream or folder.", schema: apiErrorSchema },
});

export const NAMED_STREAMS = ["webinars", "visual-library", "hbr-analytic-services", "ascend"] as const;

export const namedStream = endpoint({
  method: "get",
  path: "/service/{stream}/{number}/{size}",
  summary: "A page of a named stream (webinars, visual library, analytic services, Ascend), newest first, as its page lists it.",
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
  path: "/service/following/{number}/{size}",
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
  path: "/service/search/more-results/{number}/{size}",
  summary: "Search's “more results”: the same results, their store links carrying the search referral code.",
  tag: "Streams",
  access: "public",
  params: pagingParams,
  query: searchQuery,
  answers: streamAnswers(" (no entries without a query)"),
});

export const historyStream = endpoint({
  method: "get",
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
  path: "/service/user/list/{id}/{number}/{size}",
  summary: "What one of the reader's own library folders holds, the latest first (another reader's folder is a 404).",
  tag: "Streams",
  access: "reader",
  params: pagingParams.extend({ id: z.string().min(1).max(80) }),
  query: z.object({ format }),
  answers: streamAnswers(""),
});

export const endpoints = [
  articleContent,
  namedStream,
  followingStream,
  searchStream,
  searchMoreResults,
  historyStream,
  savesStream,
  folderStream,
];
