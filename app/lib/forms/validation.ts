import { z } from "zod";

// The spec's validation rules and their exact messages, shared by the browser and the server.

export const REQUIRED = "This field is required.";
export const EMAIL_INVALID = "Please enter a valid email address.";
export const REGISTRATION_EMAIL_INVALID = "This email address is not valid.";
export const PASSWORD_RULE =
  "Passwords must meet the following criteria: must have at least one number, one lower case letter, one upper case letter, and one special character (@ ! # $ % ^ & + =), no spaces, and be at least 8 characters long";

/** Local part, "@", and a domain with a top-level name of two or more letters, or an IP literal. */
export const EMAIL_PATTERN =
  /^[^\s@()<>,;:\\"[\]]+@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}|\[(?:\d{1,3}\.){3}\d{1,3}\])$/;

const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[@!#$%^&+=])\S{8,}$/;
const NAME_PATTERN = /^[^<>()[\]{}"'`,;|/\\]*$/;

export const tooLong = (n: number) => `This field must be less than ${n} characters.`;

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
