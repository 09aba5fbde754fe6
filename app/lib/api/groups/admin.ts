import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { ARTICLE_STATUSES } from "~/shared/article-fields";

// The Admin API (issue 38, ADR 074): the desk's JSON API for tools, at /desk/api/, called with a
// staff API key (`Authorization: Bearer …`) whose roles the desk's table allows the action.

export const TAG = "Admin API";
export const ADMIN_PAGE_SIZE = 20;

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
    422: { description: "The file is not a JPEG, PNG or WebP image, or has more than 64 megapixels.", schema: apiErrorSchema },
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
    404: { description: "No article has this id.", schema: apiErrorSchema },
  },
});

export const endpoints = [listArticles, uploadImage, setArticleImage];
