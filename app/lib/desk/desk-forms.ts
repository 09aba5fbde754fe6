import { z } from "zod";
import { ROLES } from "~/shared/staff-roles";
import { email } from "~/app/lib/forms/validation";

// The desk's form schemas, for the server and (loaded after hydration, ADR 047) the browser.

export const CODE_REQUIRED = "Enter the 6-digit code from your authenticator app, or one of your recovery codes.";
export const ENROL_CODE_INVALID = "Enter the 6-digit code your authenticator app shows for Meridian Review.";
export const ROLES_REQUIRED = "Choose at least one role.";

/** The desk's door: a TOTP code or a recovery code. */
export const codeSchema = z.object({
  code: z.string({ required_error: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED).max(64, CODE_REQUIRED),
  redirectTo: z.string().optional(),
});

/** Enrolment: a code from the secret just shown proves the app has it. */
export const enrolCodeSchema = z.object({
  code: z
    .string({ required_error: ENROL_CODE_INVALID })
    .trim()
    .regex(/^\d{6}$/, ENROL_CODE_INVALID),
});

const roles = z
  .array(z.enum(ROLES, { errorMap: () => ({ message: ROLES_REQUIRED }) }), { required_error: ROLES_REQUIRED })
  .min(1, ROLES_REQUIRED);

export const addStaffSchema = z.object({ email: email(), roles });

export const changeRolesSchema = z.object({ roles });
