import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import {
  authorFieldsSchema,
  authorPatchSchema,
  catalogueQuerySchema,
  topicFieldsSchema,
  topicPatchSchema,
} from "~/shared/catalogue-fields";
import { ADMIN_PAGE_SIZE, conflictDoc, notFoundDoc, TAG } from "./admin";

// The Admin API's authors and topics (ADR 078): listed, read, made and changed with the desk's
// own schemas. A PATCH names the `version` it read; a stale one changes nothing and answers 409
// with what is there now.

const lastSave = {
  version: z.number().int().describe("Counts the saves; a PATCH names the version it read."),
  updatedAt: z.string().nullable().describe("When it was last saved at the desk or through the API; null as the content files made it."),
  updatedBy: z.string().nullable().describe("Who saved it last."),
};

export const adminAuthorSchema = z.object({
  id: z.number().int(),
  slug: z.string().describe("How articles name the author; fixed once made."),
  name: z.string(),
  role: z.string(),
  bio: z.string(),
  ...lastSave,
});

export const adminTopicSchema = z.object({
  id: z.number().int(),
  slug: z.string().describe("The name's slug (the spec's rule): a rename changes it."),
  name: z.string(),
  description: z.string(),
  subject: z.string().nullable().describe("The subject's name; null for a subject."),
  subscriberOnly: z.boolean(),
  executiveOnly: z.boolean(),
  url: z.string().url().describe("The topic's page."),
  formerSlugs: z.array(z.string()).describe("Slugs it had before renames: their pages answer 301 to `url`."),
  ...lastSave,
});

const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "id is a whole number from 1.")
    .transform(Number),
});

const page = (item: z.ZodTypeAny) =>
  z.object({ page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), items: z.array(item) });

const KEY_ROLES = "Needs a key with the Admin or Editor role.";

const invalidRules = (what: string) => ({
  description: `The input is not valid, or the ${what}'s fields break a rule of the catalogue (a taken slug, an unknown subject): \`fields\` holds each field's errors.`,
  schema: apiErrorSchema,
});

export const listAuthors = endpoint({
  method: "get",
  operationId: "adminListAuthors",
  path: "/desk/api/authors",
  summary: `Authors by name, ${ADMIN_PAGE_SIZE} a page; \`q\` finds words in the name, slug or role (any case). ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.authors.read",
  query: catalogueQuerySchema.strict("The parameters are q and page."),
  answers: {
    200: {
      description: "One page of authors, and how many match in all; `articles` counts the articles naming each.",
      schema: page(adminAuthorSchema.extend({ articles: z.number().int() })),
    },
  },
});

export const createAuthor = endpoint({
  method: "post",
  operationId: "adminCreateAuthor",
  path: "/desk/api/authors",
  summary: `Adds an author; without a \`slug\`, one is made from the name. The slug is fixed once made. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.authors.write",
  body: authorFieldsSchema.strict("The fields are name, slug, role and bio."),
  answers: {
    201: { description: "Added.", schema: adminAuthorSchema, headers: { Location: "The author's address in the Admin API." } },
    400: invalidRules("author"),
  },
});

export const getAuthor = endpoint({
  method: "get",
  operationId: "adminGetAuthor",
  path: "/desk/api/authors/{id}",
  summary: `One author, with the version a PATCH names. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.authors.read",
  params: idParams,
  answers: {
    200: { description: "The author.", schema: adminAuthorSchema },
    404: notFoundDoc("author"),
  },
});

export const updateAuthor = endpoint({
  method: "patch",
  operationId: "adminUpdateAuthor",
  path: "/desk/api/authors/{id}",
  summary: `Changes the fields given (name, role, bio) over the \`version\` read; a stale version gets 409 and changes nothing. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.authors.write",
  params: idParams,
  body: authorPatchSchema,
  answers: {
    200: { description: "Saved (or nothing differed, and nothing was written).", schema: adminAuthorSchema },
    404: notFoundDoc("author"),
    409: conflictDoc("author", adminAuthorSchema),
    400: invalidRules("author"),
  },
});

export const listTopics = endpoint({
  method: "get",
  operationId: "adminListTopics",
  path: "/desk/api/topics",
  summary: `Topics and subjects by name, ${ADMIN_PAGE_SIZE} a page; \`q\` finds words in the name or slug (any case). ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.topics.read",
  query: catalogueQuerySchema.strict("The parameters are q and page."),
  answers: {
    200: {
      description: "One page of topics, and how many match in all; `articles` counts the articles tagged with each.",
      schema: page(adminTopicSchema.extend({ articles: z.number().int() })),
    },
  },
});

export const createTopic = endpoint({
  method: "post",
  operationId: "adminCreateTopic",
  path: "/desk/api/topics",
  summary:
    "Adds a topic under a `subject` (by name), or a subject (no subject). Its slug is made from its name. " +
    `A topic under a subject takes the subject's subscriberOnly and executiveOnly. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.topics.write",
  body: topicFieldsSchema.strict("The fields are name, description, subject, subscriberOnly and executiveOnly."),
  answers: {
    201: { description: "Added.", schema: adminTopicSchema, headers: { Location: "The topic's address in the Admin API." } },
    400: invalidRules("topic"),
  },
});

export const getTopic = endpoint({
  method: "get",
  operationId: "adminGetTopic",
  path: "/desk/api/topics/{id}",
  summary: `One topic or subject, with the version a PATCH names. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.topics.read",
  params: idParams,
  answers: {
    200: { description: "The topic.", schema: adminTopicSchema },
    404: notFoundDoc("topic"),
  },
});

export const updateTopic = endpoint({
  method: "patch",
  operationId: "adminUpdateTopic",
  path: "/desk/api/topics/{id}",
  summary:
    "Changes the fields given over the `version` read; a stale version gets 409 and changes nothing. A rename moves the " +
    "topic's page (its old address answers 301); a subject's rule carries to its topics. " +
    KEY_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.topics.write",
  params: idParams,
  body: topicPatchSchema,
  answers: {
    200: { description: "Saved (or nothing differed, and nothing was written).", schema: adminTopicSchema },
    404: notFoundDoc("topic"),
    409: conflictDoc("topic", adminTopicSchema),
    400: invalidRules("topic"),
  },
});

export const endpoints = [listAuthors, createAuthor, getAuthor, updateAuthor, listTopics, createTopic, getTopic, updateTopic];
