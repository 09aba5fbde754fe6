import type { Submission } from "@conform-to/react";
import { data } from "@remix-run/node";

/** Every secret field the account forms have; never sent back to the browser. */
const SECRET_FIELDS = ["password", "currentPassword", "newPassword", "confirmPassword", "reCaptchaToken"];

/** A failed submission: the entered values (less secrets) and the errors, with a 4xx status. */
export function rejectForm<Extra extends object = object>(
  submission: Submission<unknown>,
  errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> } = {},
  status = 400,
  extra: Extra = {} as Extra,
) {
  const result = submission.reply({ ...errors, hideFields: SECRET_FIELDS });
  return data({ ...extra, result }, { status });
}
