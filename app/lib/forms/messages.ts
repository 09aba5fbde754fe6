// The spec's validation messages, shared by the browser and the server. Apart from the schemas so
// that a page can show them without loading zod (ADR 047).

export const REQUIRED = "This field is required.";
export const EMAIL_INVALID = "Please enter a valid email address.";
export const REGISTRATION_EMAIL_INVALID = "This email address is not valid.";
/** The spec's wording in the sign-in modal, and in the registration call's 400 (§5, §8). */
export const MODAL_EMAIL_INVALID = "Email address is not valid.";
export const PASSWORD_RULE =
  "Passwords must meet the following criteria: must have at least one number, one lower case letter, one upper case letter, and one special character (@ ! # $ % ^ & + =), no spaces, and be at least 8 characters long";

export const OPT_IN_INVALID = "Please tick the box or leave it empty (true or false).";

export const tooLong = (n: number) => `This field must be less than ${n} characters.`;
