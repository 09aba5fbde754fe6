import { z } from "zod";

// Authors and topics as the desk's forms and the Admin API write them (ADR 078): one schema for
// each, which conform checks in the browser and on the server and the API parses its JSON with.
// The domain (server/desk/catalogue) adds the rules that need the database: a taken slug, a
// subject that exists.

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Letters, digits, spaces, hyphens and "&" (ADR 061): the spec's slug rule makes a plain URL segment of it. */
const TOPIC_NAME = /^[A-Za-z0-9]+([ &-]+[A-Za-z0-9]+)*$/;

export const CATALOGUE_MESSAGES = {
  authorName: "Enter the author's name, up to 120 characters.",
  authorSlug: "Enter a slug of lowercase letters, digits and single hyphens, up to 80 characters.",
  authorRole: "Enter the author's role, such as their job title, up to 200 characters.",
  authorBio: "Enter a biography of up to 3,000 characters.",
  topicName: "Enter a name of up to 60 characters: letters, digits, spaces, hyphens and &.",
  topicDescription: "Enter a description of up to 600 characters.",
  topicSubject: "Choose a subject from the list, or none for a subject.",
  version: "This form is out of date: open the page again.",
} as const;

const m = CATALOGUE_MESSAGES;

const text = (max: number, message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, message);

const flag = z.boolean({ invalid_type_error: "Answer true or false." }).default(false);

/** The version a save read: a stale one is refused, never written over what it did not see. */
export const versionField = z.number({ required_error: m.version, invalid_type_error: m.version }).int(m.version).min(1, m.version);

const authorSlug = z.string({ invalid_type_error: m.authorSlug }).trim().max(80, m.authorSlug).regex(SLUG, m.authorSlug);

const authorText = {
  name: text(120, m.authorName),
  role: text(200, m.authorRole),
  bio: text(3000, m.authorBio),
};

/** A new author: the slug is made from the name when left out, and is fixed once made. */
export const authorFieldsSchema = z.object({ ...authorText, slug: authorSlug.optional() });
export type AuthorFields = z.infer<typeof authorFieldsSchema>;

/** The desk's edit form: every field but the slug, and the version read. */
export const authorEditSchema = z.object({ ...authorText, version: versionField });
export type AuthorEdit = z.infer<typeof authorEditSchema>;

/** The Admin API's PATCH: any of the fields, and the version read. */
export const authorPatchSchema = z
  .object({ ...authorText, version: versionField })
  .partial({ name: true, role: true, bio: true })
  .strict("The fields are name, role, bio and version; an author's slug is fixed once made.");

const topicText = {
  name: z
    .string({ required_error: m.topicName, invalid_type_error: m.topicName })
    .trim()
    .min(1, m.topicName)
    .max(60, m.topicName)
    .regex(TOPIC_NAME, m.topicName),
  description: text(600, m.topicDescription),
  /** The subject's name; none (empty or null) makes the topic a subject itself. */
  subject: z
    .string({ invalid_type_error: m.topicSubject })
    .trim()
    .max(60, m.topicSubject)
    .nullish()
    .transform((value) => value || null),
  /** A subject's rule; a topic under a subject follows its subject's (ADR 061). */
  subscriberOnly: flag,
  executiveOnly: flag,
};

export const topicFieldsSchema = z.object(topicText);
export type TopicFields = z.infer<typeof topicFieldsSchema>;

export const topicEditSchema = z.object({ ...topicText, version: versionField });

export const topicPatchSchema = z
  .object({
    name: topicText.name.optional(),
    description: topicText.description.optional(),
    subject: topicText.subject.optional(),
    subscriberOnly: z.boolean({ invalid_type_error: "Answer true or false." }).optional(),
    executiveOnly: z.boolean({ invalid_type_error: "Answer true or false." }).optional(),
    version: versionField,
  })
  .strict("The fields are name, description, subject, subscriberOnly, executiveOnly and version; a topic's slug follows its name.");
export type TopicPatch = z.infer<typeof topicPatchSchema>;

/** The desk's and the API's listing: words in the name (and an author's slug and role, a topic's slug), and a page. */
export const catalogueQuerySchema = z.object({
  q: z.string().trim().max(200, "q is at most 200 characters.").optional(),
  page: z.coerce
    .number({ invalid_type_error: "page is a whole number from 1." })
    .int("page is a whole number from 1.")
    .min(1, "page is a whole number from 1.")
    .max(100_000, "page is at most 100000.")
    .optional(),
});
