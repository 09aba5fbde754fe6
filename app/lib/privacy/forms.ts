import { z } from "zod";
import { CURRENT_PASSWORD_REQUIRED } from "~/app/lib/accounts/messages";

/** Deleting the account asks for the password again (ADR 089); its messages are the change-password form's. */
export const deleteAccountSchema = z.object({
  currentPassword: z.string({ required_error: CURRENT_PASSWORD_REQUIRED }).min(1, CURRENT_PASSWORD_REQUIRED).max(1023),
});
