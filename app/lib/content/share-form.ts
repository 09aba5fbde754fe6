import { z } from "zod";
import { MAX_SHARE_RECIPIENTS } from "~/shared/share-links";
import { REQUIRED, tooLong } from "~/app/lib/forms/messages";
import { email, EMAIL_PATTERN } from "~/app/lib/forms/validation";

export const RECIPIENTS_INVALID = "Please enter valid email addresses, separated by commas.";
export const TOO_MANY_RECIPIENTS = `You can share with up to ${MAX_SHARE_RECIPIENTS} addresses at a time.`;
export const MESSAGE_MAX = 1000;

/** Comma-separated addresses: each must be valid, and there may be no more than the cap. */
export const recipients = z
  .string({ required_error: REQUIRED })
  .max(2000, tooLong(2000))
  .transform((value) =>
    value
      .split(",")
      .map((a) => a.trim())
      .filter((a) => a !== ""),
  )
  .pipe(
    z
      .array(z.string())
      .min(1, REQUIRED)
      .refine((list) => list.every((a) => EMAIL_PATTERN.test(a)), RECIPIENTS_INVALID)
      .refine((list) => list.length <= MAX_SHARE_RECIPIENTS, TOO_MANY_RECIPIENTS),
  );

/** The e-mail share form (spec: a valid sender, valid comma-separated recipients, both required). */
export const emailShareSchema = z.object({
  from: email(),
  sharedWith: recipients,
  description: z
    .string()
    .max(MESSAGE_MAX - 1, tooLong(MESSAGE_MAX))
    .default(""),
});

/** What is shared: an article, video or podcast episode by its id. */
export const shareRefSchema = z.object({
  type: z.enum(["article", "video", "podcast"]),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

/** The daily cap on e-mail shares (server/share/email.ts EMAIL_SHARES_PER_DAY) is reached. */
export const SHARE_DAILY_LIMIT = "You have shared as many e-mails as we allow in a day. Please try again tomorrow.";
