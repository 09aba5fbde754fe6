import { z } from "zod";

/** An article's address (/{year}/{month}/{seotitle}): what the article page and the content service accept. */
export const articleAddressSchema = z.object({
  year: z.string().regex(/^\d{4}$/, "Please give the article's year (four digits)."),
  month: z.string().regex(/^\d{1,2}$/, "Please give the article's month (1 to 12)."),
  seotitle: z.string().regex(/^[a-z0-9-]{1,120}$/, "Please give the article's address name (lower-case letters, digits and hyphens)."),
});
