import { z } from "zod";
import { MAX_SHARE_RECIPIENTS } from "../../../shared/share-links";
import { email, EMAIL_PATTERN, REQUIRED, tooLong } from "./validation";

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
