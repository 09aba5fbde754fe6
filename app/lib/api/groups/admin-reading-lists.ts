import { z } from "zod";
import { endpoint } from "~/app/lib/api/contract";
import { ARTICLE_STATUSES } from "~/shared/article-fields";
import { articleRef, READING_LIST_MAX_ITEMS, READING_LIST_MESSAGES, readingListFieldsSchema } from "~/shared/curation-fields";
import { conflictDoc, notFoundDoc, TAG } from "./admin";

// The Admin API's reading lists (issue 38): list, create, read and change them, their articles
// named by slug or address. A change carries the version it read and gets 409 when it is stale.

const m = READING_LIST_MESSAGES;
const ROLES_NOTE = "Needs a key with the Admin or Editor role.";

const items = z
  .array(articleRef(m.items), { invalid_type_error: m.items })
  .max(READING_LIST_MAX_ITEMS, m.items)
  .describe("The list's articles in reading order, each by its slug or its address on the site; only published articles can be added.");

export const adminReadingListSummarySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  size: z.number().int().describe("How many articles the list holds."),
  version: z.number().int().describe("Counts the list's saves; a change names the version it read."),
  updatedAt: z.string().nullable().describe("The last change through the desk or this API (ISO time); null as seeded."),
  url: z.string().url().describe("The list's page on the site."),
});

export const adminReadingListSchema = adminReadingListSummarySchema.omit({ size: true }).extend({
  description: z.string(),
  updatedBy: z.string().nullable().describe("Who made the last change: a staff member's address or an API key's name."),
  items: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      status: z.enum(ARTICLE_STATUSES).describe("Readers see only the list's published articles."),
      url: z.string().url().nullable().describe("The article's address while it is published; null otherwise."),
    }),
  ),
});

const params = z.object({
  id: z.coerce
    .number({ invalid_type_error: "The id is a whole number." })
    .int("The id is a whole number.")
    .min(1, "The id is a whole number from 1.")
    .max(999_999_999, "No reading list has that id."),
});

const notFound = notFoundDoc("reading list");

export const listReadingLists = endpoint({
  method: "get",
  operationId: "adminListReadingLists",
  path: "/desk/api/reading-lists",
  summary: `Every reading list, by title, with how many articles each holds. ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.reading-lists.read",
  answers: { 200: { description: "The reading lists.", schema: z.object({ items: z.array(adminReadingListSummarySchema) }) } },
});

export const createReadingList = endpoint({
  method: "post",
  operationId: "adminCreateReadingList",
  path: "/desk/api/reading-lists",
  summary: `Creates a reading list (readers see it at once). ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.reading-lists.write",
  body: readingListFieldsSchema.extend({ items: items.default([]) }).strict("The fields are name, slug, description and items."),
  answers: { 201: { description: "The new list, at version 1.", schema: adminReadingListSchema } },
});

export const getReadingList = endpoint({
  method: "get",
  operationId: "adminGetReadingList",
  path: "/desk/api/reading-lists/{id}",
  summary: `One reading list with its articles in order, in every state. ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.reading-lists.read",
  params,
  answers: { 200: { description: "The list.", schema: adminReadingListSchema }, 404: notFound },
});

export const updateReadingList = endpoint({
  method: "patch",
  operationId: "adminUpdateReadingList",
  path: "/desk/api/reading-lists/{id}",
  summary:
    "Changes a reading list: the fields sent replace the list's (`items` replaces the whole list of articles), if the list is still " +
    `at \`version\`. ${ROLES_NOTE}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.reading-lists.write",
  params,
  body: readingListFieldsSchema
    .partial()
    .extend({
      version: z.number({ required_error: m.version, invalid_type_error: m.version }).int(m.version).min(1, m.version),
      items: items.optional(),
    })
    .strict("The fields are version, name, slug, description and items."),
  answers: {
    200: { description: "The list as saved, at its new version.", schema: adminReadingListSchema },
    404: notFound,
    409: conflictDoc("reading list", adminReadingListSchema),
  },
});

export const endpoints = [listReadingLists, createReadingList, getReadingList, updateReadingList];
