import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { ARTICLE_STATUSES } from "~/shared/article-fields";
import { issueCreateBodySchema, issuePatchBodySchema, issueQuerySchema } from "~/shared/issue-fields";
import { adminImageSchema, IMAGE_ID_UNKNOWN, TAG } from "./admin";

// The Admin API's magazine issues (issue 38): list, add, read and change them, their contents'
// articles named by slug or address, and set their cover to an uploaded image. A change carries
// the version it read and gets 409 when it is stale.

const ROLES_NOTE = "Needs a key with the Admin or Editor role.";
const ID_INVALID = "id is an issue's number.";

const lastSave = {
  version: z.number().int().describe("Counts the issue's saves; a PATCH names the version it read. Setting the cover does not count."),
  updatedAt: z.string().nullable().describe("The last save at the desk or through this API (ISO time); null as seeded."),
  updatedBy: z.string().nullable().describe("Who saved it last: a staff member's name or an API key's."),
};

const dated = {
  id: z.number().int(),
  code: z.string().describe("The issue's code, its page's address (/archive-toc/{code}); a former code's page answers 301."),
  year: z.number().int(),
  month: z.number().int().describe("The first month the issue covers, 1 to 12."),
  monthLabel: z.string().describe("The months it covers, as the archive names them (“July–August”)."),
  title: z.string().describe("The cover story's title."),
};

export const adminIssueSummarySchema = z.object({
  ...dated,
  features: z.number().int().describe("How many features its contents list."),
  hasCover: z.boolean().describe("Whether it has an uploaded cover (else readers see the drawn one)."),
  ...lastSave,
  url: z.string().url().describe("The issue's page on the site."),
});

export const adminIssueSchema = z.object({
  ...dated,
  summary: z.string(),
  ...lastSave,
  url: z.string().url().describe("The issue's page on the site."),
  cover: adminImageSchema.nullable().describe("The uploaded cover; null when readers see the drawn one."),
  drawnCover: z.string().url().describe("The drawn cover, shown when none is uploaded."),
  features: z
    .array(
      z.object({
        title: z.string(),
        article: z
          .object({
            id: z.number().int(),
            slug: z.string(),
            title: z.string(),
            status: z.enum(ARTICLE_STATUSES).describe("Readers get a link to the article only while it is published."),
            url: z.string().url().nullable().describe("The article's address while it is published; null otherwise."),
          })
          .nullable(),
      }),
    )
    .describe("The contents, in order."),
});

const params = z.object({
  id: z.coerce.number({ invalid_type_error: ID_INVALID }).int(ID_INVALID).min(1, ID_INVALID).max(999_999_999, ID_INVALID),
});

const notFound = { description: "No issue has this id.", schema: apiErrorSchema };
const FEATURES_NOTE =
  "`features` lists the contents in order: each a `title`, an `article` (its slug or its address on the site, in any state), or " +
  "both; without a title, the article's is used.";

export const listIssues = endpoint({
  method: "get",
  operationId: "adminListIssues",
  path: "/desk/api/issues",
  summary: `Magazine issues, newest first by their date, 20 a page; \`year\` keeps one year's. ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.issues.read",
  query: issueQuerySchema.strict("The parameters are year and page."),
  answers: {
    200: {
      description: "One page of issues, and how many match in all.",
      schema: z.object({
        page: z.number().int(),
        pageSize: z.number().int(),
        total: z.number().int(),
        items: z.array(adminIssueSummarySchema),
      }),
    },
  },
});

export const createIssue = endpoint({
  method: "post",
  operationId: "adminCreateIssue",
  path: "/desk/api/issues",
  summary:
    "Adds an issue (readers see it in the archive at once). Without a `code`, one is made from `year` and `month` (BR2601 for " +
    `January 2026). A code or a month another issue has, or an unknown article, answers 400 with \`fields\`. ${FEATURES_NOTE} ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.issues.write",
  body: issueCreateBodySchema,
  answers: {
    201: {
      description: "The new issue, at version 1.",
      schema: adminIssueSchema,
      headers: { Location: "The issue's address in the Admin API." },
    },
  },
});

export const getIssue = endpoint({
  method: "get",
  operationId: "adminGetIssue",
  path: "/desk/api/issues/{id}",
  summary: `One issue with its contents in order and its cover. ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.issues.read",
  params,
  answers: { 200: { description: "The issue.", schema: adminIssueSchema }, 404: notFound },
});

export const updateIssue = endpoint({
  method: "patch",
  operationId: "adminUpdateIssue",
  path: "/desk/api/issues/{id}",
  summary:
    "Changes an issue: the fields sent replace the issue's (`features` the whole contents), if it is still at `version`; a new " +
    `code leaves the old page answering 301. A save that changes nothing writes nothing. ${FEATURES_NOTE} ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.issues.write",
  params,
  body: issuePatchBodySchema,
  answers: {
    200: { description: "The issue as saved, at its new version (or as it was, when nothing differed).", schema: adminIssueSchema },
    404: notFound,
    409: {
      description:
        "Saved by someone else since `version`: nothing was saved. `current` is the issue as it is now, `by` who saved it and `at` when.",
      schema: apiErrorSchema.extend({ current: adminIssueSchema, by: z.string(), at: z.string() }),
    },
  },
});

export const setIssueCover = endpoint({
  method: "put",
  operationId: "adminSetIssueCover",
  path: "/desk/api/issues/{id}/cover",
  summary:
    "Makes an uploaded image (POST /desk/api/images) the issue's cover; `null` removes it, and readers see the drawn cover again. " +
    `The archive, the issue's page and its og:image change within seconds. ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.issues.write",
  params,
  body: z
    .object({
      imageId: z
        .string({ required_error: "imageId is an image's id, or null.", invalid_type_error: "imageId is an image's id, or null." })
        .max(64, IMAGE_ID_UNKNOWN)
        .nullable(),
    })
    .strict("The body is { imageId }."),
  answers: {
    200: { description: "The issue's cover now.", schema: z.object({ id: z.number().int(), cover: adminImageSchema.nullable() }) },
    404: notFound,
  },
});

export const endpoints = [listIssues, createIssue, getIssue, updateIssue, setIssueCover];
