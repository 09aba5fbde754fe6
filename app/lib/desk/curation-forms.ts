import { z } from "zod";
import { READING_LIST_MAX_ITEMS, READING_LIST_MESSAGES, readingListFieldsSchema } from "~/shared/curation-fields";

// The curation forms' schemas (the home page's stories, reading lists), for the server and,
// loaded after hydration (ADR 047), the browser. The list a form holds travels in it as hidden
// `item` fields (article ids, in order) with the `version` it was read at; the buttons' intents
// say what to do with it.

export const ADD_INVALID = "Enter an article's address (such as /2024/05/its-slug) or its slug.";
const VERSION_INVALID = "This form is out of date: open the page again.";

/** A form holding a list of articles: the version it read, the list (ids, in order, at most `max`), and an article to add. */
export function articleListFields(max: number, itemsInvalid: string) {
  return {
    version: z
      .number({ required_error: VERSION_INVALID, invalid_type_error: VERSION_INVALID })
      .int(VERSION_INVALID)
      .min(1, VERSION_INVALID),
    item: z
      .array(z.number({ invalid_type_error: itemsInvalid }).int(itemsInvalid), { invalid_type_error: itemsInvalid })
      .max(max, itemsInvalid)
      .default([]),
    add: z.string().trim().max(500, ADD_INVALID).optional(),
  };
}

const list = articleListFields(READING_LIST_MAX_ITEMS, READING_LIST_MESSAGES.items);

export const homeStoriesSchema = z.object(list);

export const readingListFormSchema = readingListFieldsSchema.extend({ ...list, version: list.version.optional() });
