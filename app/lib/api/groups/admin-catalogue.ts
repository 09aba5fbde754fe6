import { z, type ZodTypeAny } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import type { DeskAction } from "~/server/desk/roles";
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

interface Kind<F extends ZodTypeAny, P extends ZodTypeAny> {
  /** "author": how messages name one; "Author" in operation ids, "authors" in the path. */
  noun: "author" | "topic";
  row: z.AnyZodObject;
  /** A POST's body and a PATCH's. */
  fields: F;
  patch: P;
  read: DeskAction;
  write: DeskAction;
  summaries: { list: string; create: string; get: string; update: string };
  /** What a listing's `articles` counts. */
  articles: string;
}

/** The four calls of one kind of row: list and create at /desk/api/{kind}s, read and change at /{id}. */
function catalogueEndpoints<F extends ZodTypeAny, P extends ZodTypeAny>(kind: Kind<F, P>) {
  const { noun, row } = kind;
  const name = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
  const path = `/desk/api/${noun}s`;
  const common = { tag: TAG, access: "desk-key" } as const;
  return {
    list: endpoint({
      ...common,
      method: "get",
      operationId: `adminList${name}s`,
      path,
      summary: `${kind.summaries.list} ${KEY_ROLES}`,
      deskAction: kind.read,
      query: catalogueQuerySchema.strict("The parameters are q and page."),
      answers: {
        200: {
          description: `One page of ${noun}s, and how many match in all; \`articles\` counts the articles ${kind.articles}.`,
          schema: page(row.extend({ articles: z.number().int() })),
        },
      },
    }),
    create: endpoint({
      ...common,
      method: "post",
      operationId: `adminCreate${name}`,
      path,
      summary: `${kind.summaries.create} ${KEY_ROLES}`,
      deskAction: kind.write,
      body: kind.fields,
      answers: {
        201: { description: "Added.", schema: row, headers: { Location: `The ${noun}'s address in the Admin API.` } },
        400: invalidRules(noun),
      },
    }),
    get: endpoint({
      ...common,
      method: "get",
      operationId: `adminGet${name}`,
      path: `${path}/{id}`,
      summary: `${kind.summaries.get} ${KEY_ROLES}`,
      deskAction: kind.read,
      params: idParams,
      answers: {
        200: { description: `The ${noun}.`, schema: row },
        404: notFoundDoc(noun),
      },
    }),
    update: endpoint({
      ...common,
      method: "patch",
      operationId: `adminUpdate${name}`,
      path: `${path}/{id}`,
      summary: `${kind.summaries.update} ${KEY_ROLES}`,
      deskAction: kind.write,
      params: idParams,
      body: kind.patch,
      answers: {
        200: { description: "Saved (or nothing differed, and nothing was written).", schema: row },
        404: notFoundDoc(noun),
        409: conflictDoc(noun, row),
        400: invalidRules(noun),
      },
    }),
  };
}

const authors = catalogueEndpoints({
  noun: "author",
  row: adminAuthorSchema,
  fields: authorFieldsSchema.strict("The fields are name, slug, role and bio."),
  patch: authorPatchSchema,
  read: "api.authors.read",
  write: "api.authors.write",
  summaries: {
    list: `Authors by name, ${ADMIN_PAGE_SIZE} a page; \`q\` finds words in the name, slug or role (any case).`,
    create: "Adds an author; without a `slug`, one is made from the name. The slug is fixed once made.",
    get: "One author, with the version a PATCH names.",
    update: "Changes the fields given (name, role, bio) over the `version` read; a stale version gets 409 and changes nothing.",
  },
  articles: "naming each",
});

const topics = catalogueEndpoints({
  noun: "topic",
  row: adminTopicSchema,
  fields: topicFieldsSchema.strict("The fields are name, description, subject, subscriberOnly and executiveOnly."),
  patch: topicPatchSchema,
  read: "api.topics.read",
  write: "api.topics.write",
  summaries: {
    list: `Topics and subjects by name, ${ADMIN_PAGE_SIZE} a page; \`q\` finds words in the name or slug (any case).`,
    create:
      "Adds a topic under a `subject` (by name), or a subject (no subject). Its slug is made from its name. " +
      "A topic under a subject takes the subject's subscriberOnly and executiveOnly.",
    get: "One topic or subject, with the version a PATCH names.",
    update:
      "Changes the fields given over the `version` read; a stale version gets 409 and changes nothing. A rename moves the " +
      "topic's page (its old address answers 301); a subject's rule carries to its topics.",
  },
  articles: "tagged with each",
});

export const { list: listAuthors, create: createAuthor, get: getAuthor, update: updateAuthor } = authors;
export const { list: listTopics, create: createTopic, get: getTopic, update: updateTopic } = topics;

export const endpoints = [listAuthors, createAuthor, getAuthor, updateAuthor, listTopics, createTopic, getTopic, updateTopic];
