import { z } from "zod";

// What the desk's curation forms and the Admin API send: a reading list's fields, and articles
// named by their address or slug (the editor pastes what they see in the browser).

export const READING_LIST_MAX_ITEMS = 100;

export const READING_LIST_MESSAGES = {
  name: "Enter a title of up to 200 characters.",
  slug: "Enter a slug of lowercase letters, digits and single hyphens, up to 120 characters.",
  description: "Enter a description of up to 2,000 characters.",
  items: `A reading list holds up to ${READING_LIST_MAX_ITEMS} articles, each named by its address or slug.`,
  version: "Send the version you read, a whole number.",
} as const;

const m = READING_LIST_MESSAGES;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const readingListFieldsSchema = z.object({
  name: z.string({ required_error: m.name }).trim().min(1, m.name).max(200, m.name),
  slug: z.string({ required_error: m.slug }).trim().max(120, m.slug).regex(SLUG, m.slug),
  description: z.string({ required_error: m.description }).trim().max(2000, m.description).default(""),
});
export type ReadingListFields = z.output<typeof readingListFieldsSchema>;

/** An article as an editor names it: its slug, its path, or its full address. */
export const articleRef = (message: string) => z.string().trim().min(1, message).max(500, message);

/**
 * The slug an article reference names: `the-slug`, `/2024/05/the-slug`, or the full address
 * (with a query or a trailing slash); null for anything else.
 */
export function slugOfArticleRef(ref: string): string | null {
  const value = ref.trim();
  if (SLUG.test(value) && value.length <= 120) return value;
  let path: string;
  try {
    path = new URL(value, "http://site.invalid").pathname;
  } catch {
    return null;
  }
  const match = /^\/\d{4}\/\d{1,2}\/([a-z0-9]+(?:-[a-z0-9]+)*)\/?$/.exec(path);
  return match && match[1]!.length <= 120 ? match[1]! : null;
}
