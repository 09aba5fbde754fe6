import { z } from "zod";
import { COMPANY_SIZES, INDUSTRIES, JOB_TITLES } from "~/app/lib/forms/choices";
import { MODAL_EMAIL_INVALID, REGISTRATION_EMAIL_INVALID, REQUIRED } from "~/app/lib/forms/messages";
import { anyPassword, email, newPassword, optInFlag, optionalChoice, personName, requiredText } from "~/app/lib/forms/validation";

// Field names follow the spec's payloads (sign-in, registration, forgot password, profile).

const captchaToken = z.string().max(4096).optional();

export const signInSchema = z.object({
  // Spec: the sign-in e-mail must match the pattern, else "This field is required."
  username: email(REQUIRED),
  password: anyPassword,
  reCaptchaToken: captchaToken,
});

export const registrationSchema = z.object({
  firstName: personName("Please enter a valid first name."),
  lastName: personName("Please enter a valid last name."),
  emailAddress: email(REGISTRATION_EMAIL_INVALID),
  password: newPassword,
  optIn: optInFlag,
  reCaptchaToken: captchaToken,
});

/** The same rules in the modal's words, which the registration call (POST /api/user/register) answers with too. */
export const modalRegistrationSchema = registrationSchema.extend({ emailAddress: email(MODAL_EMAIL_INVALID) });

export const forgotPasswordSchema = z.object({
  emailAddress: email(),
  reCaptchaToken: captchaToken,
});

export const resetPasswordSchema = z
  .object({
    token: requiredText(200),
    newPassword,
    confirmPassword: z.string({ required_error: REQUIRED }).min(1, REQUIRED),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "New Password and Confirm Password do not match",
  });

export const profileSchema = z.object({
  displayName: z
    .string()
    .trim()
    .max(59, "This field must be less than 60 characters.")
    .optional()
    .transform((v) => v ?? ""),
  emailAddress: email(),
  industry: optionalChoice(INDUSTRIES),
  jobTitle: optionalChoice(JOB_TITLES),
  companySize: optionalChoice(COMPANY_SIZES),
  // Asked only when the address changes (the action checks it then).
  currentPassword: z.string().max(1023).optional(),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ required_error: "Current Password is required" }).min(1, "Current Password is required").max(1023),
    newPassword: z.string({ required_error: "New Password is required" }).min(1, "New Password is required").pipe(newPassword),
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.newPassword === (v.confirmPassword ?? ""), {
    path: ["confirmPassword"],
    message: "New Password and Confirm Password do not match",
  });

const accountNumber = requiredText(21).pipe(z.string().regex(/^[A-Za-z0-9-]+$/, "Please enter a valid value into this field."));

/** The button on the page a mailed address-confirmation link opens. */
export const confirmEmailSchema = z.object({ token: requiredText(200) });

/** A signed-in reader connecting their print subscription. */
export const linkPrintSubscriptionSchema = z.object({ accountNumber });

export const subscriberRegistrationSchema = z.object({
  emailAddress: email(),
  accountNumber,
  password: newPassword,
  optIn: optInFlag,
});
