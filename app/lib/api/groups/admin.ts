import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { ARTICLE_STATUSES, articleFieldsSchema, CURATED_STREAMS } from "~/shared/article-fields";

// The Admin API (issue 38, ADR 074): the desk's JSON API for tools, at /desk/api/, called with a
// staff API key (`Authorization: Bearer …`) whose roles the desk's table allows the action.

export const TAG = "Admin API";
export const ADMIN_PAGE_SIZE = 20;

/** The 404 of an id that names nothing (handler.server.ts notFoundAnswer). */
export const notFoundDoc = (what: string) => ({ description: `No ${what} has this id.`, schema: apiErrorSchema });

/** The 409 of a change over a stale `version` (handler.server.ts conflictAnswer). */
export const conflictDoc = (what: string, current: z.ZodTypeAny) => ({
  description: `The ${what} was changed since \`version\`: nothing was written. \`current\` is the ${what} as it is now, \`by\` who changed it and \`at\` when.`,
  schema: apiErrorSchema.extend({
    current,
    by: z.string().describe("Who made the change: a staff member's name or an API key's."),
    at: z.string().describe("When (ISO time)."),
  }),
});

const STATUS_INVALID = `status is one of ${ARTICLE_STATUSES.join(", ")}.`;
const PAGE_INVALID = "page is a whole number from 1.";
const Q_TOO_LONG = "q is at most 200 characters.";

export const adminArticleSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  status: z.enum(ARTICLE_STATUSES),
  version: z.number().int().describe("Counts the article's saves; a change names the version it read."),
  title: z.string(),
  dek: z.string(),
  summary: z.string(),
  authors: z.array(z.string()).describe("Author slugs, in the byline's order."),
  topics: z.array(z.string()).describe("Topic names, the primary first."),
  contentType: z.string(),
  tier: z.enum(["article", "top50", "cases", "visual-library"]),
  publishedAt: z.string().describe("The publication day, YYYY-MM-DD."),
  url: z.string().url().nullable().describe("The article's address on the site while it is published; null otherwise."),
});

export const listArticles = endpoint({
  method: "get",
  operationId: "adminListArticles",
  path: "/desk/api/articles",
  summary:
    `Articles, newest first, ${ADMIN_PAGE_SIZE} a page: \`status\` filters by state, \`q\` finds words in the title, dek or summary (any case). ` +
    "An unknown parameter is refused (400). Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.read",
  query: z
    .object({
      status: z.enum(ARTICLE_STATUSES, { errorMap: () => ({ message: STATUS_INVALID }) }).optional(),
      q: z.string().trim().max(200, Q_TOO_LONG).optional(),
      page: z.coerce
        .number({ invalid_type_error: PAGE_INVALID })
        .int(PAGE_INVALID)
        .min(1, PAGE_INVALID)
        .max(100_000, "page is at most 100000.")
        .optional(),
    })
    .strict("The parameters are status, q and page."),
  answers: {
    200: {
      description: "One page of articles, and how many match in all.",
      schema: z.object({
        page: z.number().int(),
        pageSize: z.number().int(),
        total: z.number().int(),
        items: z.array(adminArticleSchema),
      }),
    },
  },
});

// Writing articles: the seed format's keys, checked by the schema the desk's form and the content
// files use (shared/article-fields.ts); a key it does not know is refused rather than dropped.

/** An article's text runs to 200,000 characters: its JSON, escapes and all, fits in a megabyte. */
const ARTICLE_BODY_BYTES = 1024 * 1024;
const fields = articleFieldsSchema.innerType();
const FIELD_KEYS = `The fields are ${Object.keys(fields.shape).join(", ")}.`;

export const adminArticleDetailSchema = fields
  .extend({
    id: z.number().int(),
    version: z.number().int().describe("Counts the article's saves; a change names the version it read."),
    status: z.enum(ARTICLE_STATUSES),
    subDek: z.string(),
    series: z.string().nullable(),
    seriesTitle: z.string().nullable(),
    seriesPart: z.number().int().nullable(),
    streams: z.array(z.enum(CURATED_STREAMS)),
    publishedAt: z.string().describe("The publication day the article carries (its `published`), YYYY-MM-DD."),
    publishAt: z.string().nullable().describe("When a scheduled article is to be published (ISO time); null in any other state."),
    url: z.string().url().nullable().describe("The article's address on the site while it is published; null otherwise."),
  })
  .describe("An article: the seed format's fields, and its state.");

const idParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, "id is an article's number.")
    .transform(Number),
});

const notFound = notFoundDoc("article");
const article = (description: string) => ({ description, schema: adminArticleDetailSchema });
const wrongState = {
  description: "The article is not in a state this applies to (`status` says which it is in).",
  schema: apiErrorSchema.extend({ status: z.enum(ARTICLE_STATUSES) }),
};

export const createArticle = endpoint({
  method: "post",
  operationId: "adminCreateArticle",
  path: "/desk/api/articles",
  summary:
    "Creates an article as a draft, at version 1, from the seed format's keys: `authors` are author slugs in the byline's order, " +
    "`topics` topic names with the primary (a subject) first, `published` the day it carries (YYYY-MM-DD, which gives its address). " +
    "Unknown authors or topics, a slug in use and any field's error answer 400 with `fields`. Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.write",
  body: fields.strict(FIELD_KEYS),
  maxBodyBytes: ARTICLE_BODY_BYTES,
  answers: {
    201: { ...article("The draft, as stored."), headers: { Location: "The article's address in the Admin API." } },
  },
});

export const getArticle = endpoint({
  method: "get",
  operationId: "adminGetArticle",
  path: "/desk/api/articles/{id}",
  summary: "One article in any state, with every field. Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.read",
  params: idParams,
  answers: { 200: article("The article."), 404: notFound },
});

export const patchArticle = endpoint({
  method: "patch",
  operationId: "adminPatchArticle",
  path: "/desk/api/articles/{id}",
  summary:
    "Changes some of an article's fields (those left out stay as they are), given the `version` the caller read: if the article " +
    "was saved since, nothing is written and the answer is 409 with the article as it is now. A published article changes live; " +
    "a new slug or date moves its address, and the old one answers 301. Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.write",
  params: idParams,
  body: fields
    .partial()
    .extend({ version: z.number({ required_error: "version is the version you read." }).int().min(1, "version counts from 1.") })
    .strict(`${FIELD_KEYS} And version, which is required.`),
  maxBodyBytes: ARTICLE_BODY_BYTES,
  answers: {
    200: article("The article as saved, at its next version."),
    404: notFound,
    409: conflictDoc("article", adminArticleDetailSchema),
  },
});

export const publishArticle = endpoint({
  method: "post",
  operationId: "adminPublishArticle",
  path: "/desk/api/articles/{id}/publish",
  summary:
    "Publishes a draft, scheduled or unpublished article now (an empty body), or schedules it for `at` (an ISO time with its " +
    "offset; a time not in the future publishes now). A scheduled article may be given another time; a published one answers 409. " +
    "Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.write",
  params: idParams,
  body: z
    .object({
      at: z.string().datetime({ offset: true, message: "at is an ISO time with its offset, such as 2026-03-01T09:00:00Z." }).optional(),
    })
    .strict("The only field is at."),
  answers: { 200: article("The article, published or scheduled."), 404: notFound, 409: wrongState },
});

export const unpublishArticle = endpoint({
  method: "post",
  operationId: "adminUnpublishArticle",
  path: "/desk/api/articles/{id}/unpublish",
  summary:
    "Takes a published article down (its address answers 410 from then on), or a scheduled one off the schedule (it is a draft " +
    "again). A draft or an unpublished article answers 409. Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.write",
  params: idParams,
  answers: { 200: article("The article, unpublished (or a draft again)."), 404: notFound, 409: wrongState },
});

// Images (issue 38, ADR 077): upload one, then make it an article's hero.

export const IMAGE_ID_UNKNOWN = "No image has this id: upload it first (POST /desk/api/images).";
const ARTICLE_ID_INVALID = "id is an article's number.";

export const adminImageSchema = z.object({
  id: z.string(),
  width: z.number().int().describe("Its width once turned upright, in pixels."),
  height: z.number().int(),
  alt: z.string().nullable(),
  urls: z
    .object({ avif: z.string(), webp: z.string(), jpeg: z.string() })
    .describe("Each format as a srcset: every width kept (320 to 1920 px, and the image's own), as absolute URLs."),
});

export const uploadImage = endpoint({
  method: "post",
  operationId: "adminUploadImage",
  path: "/desk/api/images",
  summary:
    "Uploads an image as multipart/form-data: `file` (a JPEG, PNG or WebP of up to 20 MB, judged by its content, not its name or type) " +
    "and optional `alt` text. It is turned upright, stripped of EXIF and kept in AVIF, WebP and JPEG at responsive widths. The same " +
    "file uploaded again is the same image (200). Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.write",
  upload: z.object({
    file: z.string().describe("The image's bytes (a file part)."),
    alt: z.string().max(300).optional().describe("What the image shows, for readers who cannot see it."),
  }),
  answers: {
    201: { description: "The image, stored.", schema: adminImageSchema },
    200: { description: "The same file was uploaded before: that image, unchanged.", schema: adminImageSchema },
    413: { description: "The body is larger than 20 MB and its form.", schema: apiErrorSchema },
  },
});

export const setArticleImage = endpoint({
  method: "put",
  operationId: "adminSetArticleImage",
  path: "/desk/api/articles/{id}/image",
  summary:
    "Makes an uploaded image the article's hero, in any state; `null` removes it, and the article shows its drawn art again. A " +
    "published article's page changes within seconds. Needs a key with the Admin or Editor role.",
  tag: TAG,
  access: "desk-key",
  deskAction: "api.articles.write",
  params: z.object({
    id: z.coerce
      .number({ invalid_type_error: ARTICLE_ID_INVALID })
      .int(ARTICLE_ID_INVALID)
      .min(1, ARTICLE_ID_INVALID)
      .max(2 ** 31 - 1, ARTICLE_ID_INVALID),
  }),
  body: z
    .object({
      imageId: z
        .string({ required_error: "imageId is an image's id, or null.", invalid_type_error: "imageId is an image's id, or null." })
        .max(64, IMAGE_ID_UNKNOWN)
        .nullable(),
    })
    .strict("The body is { imageId }."),
  answers: {
    200: {
      description: "The article's hero now.",
      schema: z.object({ id: z.number().int(), image: adminImageSchema.nullable() }),
    },
    404: notFound,
  },
});

export const endpoints = [listArticles, createArticle, getArticle, patchArticle, publishArticle, unpublishArticle];

/** Listed last in the catalogue (app/lib/api/catalogue.ts), so that the fuzz run keeps the seeds it gives the operations before them. */
export const imageEndpoints = [uploadImage, setArticleImage];
