import { z } from "zod";
import { EMAIL_INVALID, OPT_IN_INVALID, PASSWORD_RULE, REQUIRED, tooLong } from "./messages";

// The spec's validation rules, shared by the browser and the server (their messages: messages.ts).

/** Local part, "@", and a domain with a top-level name of two or more letters, or an IP literal. */
export const EMAIL_PATTERN =
  /^[^\s@()<>,;:\\"[\]]+@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}|\[(?:\d{1,3}\.){3}\d{1,3}\])$/;

const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[@!#$%^&+=])\S{8,}$/;
const NAME_PATTERN = /^[^<>()[\]{}"'`,;|/\\]*$/;

/** A required text field: empty or only spaces is "This field is required."; trimmed. */
export function requiredText(max = 100) {
  return z
    .string({ required_error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .max(max - 1, tooLong(max));
}

export function email(message = EMAIL_INVALID) {
  return requiredText(255).pipe(z.string().regex(EMAIL_PATTERN, message));
}

/**
 * A consent box: a form sends "on" when it is ticked and nothing when it is not; a JSON client
 * sends true or false. Read as a yes or no.
 */
export const optInFlag = z
  .union([z.boolean(), z.literal("on")], { errorMap: () => ({ message: OPT_IN_INVALID }) })
  .optional()
  .transform((value) => value === true || value === "on");

export const newPassword = z
  .string({ required_error: REQUIRED })
  .min(1, REQUIRED)
  .max(127, tooLong(128))
  .regex(PASSWORD_PATTERN, PASSWORD_RULE);

/** Sign-in and the current password only need to be there. */
export const anyPassword = z.string({ required_error: REQUIRED }).min(1, REQUIRED).max(1023, tooLong(1024));

export function personName(message: string) {
  return requiredText(60).pipe(z.string().regex(NAME_PATTERN, message));
}

/** An optional choice from a fixed list; blank is allowed. */
export function optionalChoice(options: readonly string[]) {
  return z
    .enum(options as [string, ...string[]], { errorMap: () => ({ message: "Please select a valid value" }) })
    .optional()
    .transform((v) => v ?? "");
}
