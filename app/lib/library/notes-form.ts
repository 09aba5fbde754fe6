import { z } from "zod";

export const CHOOSE_PARAGRAPH = "Choose one of the article's paragraphs.";

/**
 * The "Add a note" form's shape: a paragraph of this article, and text fields. What a note may
 * say (not empty, not too long) is the annotations module's rule, with its messages.
 */
export function noteSchema(paragraphCount: number) {
  return z.object({
    paragraph: z.coerce
      .number({ invalid_type_error: CHOOSE_PARAGRAPH, required_error: CHOOSE_PARAGRAPH })
      .int(CHOOSE_PARAGRAPH)
      .min(0, CHOOSE_PARAGRAPH)
      .max(paragraphCount - 1, CHOOSE_PARAGRAPH),
    quote: z.string().default(""),
    note: z.string().default(""),
  });
}

/** The field a message from addAnnotation is about, so it shows beside that field; undefined for the form as a whole. */
export function noteErrorField(message: string): "paragraph" | "quote" | "note" | undefined {
  if (message.startsWith("The paragraph")) return "paragraph";
  if (message.startsWith("The quoted passage")) return "quote";
  if (message.startsWith("Write a note") || message.startsWith("The note")) return "note";
  return undefined;
}
