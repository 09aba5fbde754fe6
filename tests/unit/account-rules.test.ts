import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { accountBlocked, formatWait, triesLeft } from "~/app/lib/accounts/messages";
import {
  changePasswordSchema,
  modalRegistrationSchema,
  profileSchema,
  registrationSchema,
  signInSchema,
} from "~/app/lib/accounts/account-forms";
import { PASSWORD_RULE } from "~/app/lib/forms/messages";

function errors(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const result = parseWithZod(form, { schema });
  return result.status === "success" ? {} : result.error;
}

describe("sign-in messages", () => {
  it("counts tries, with 'try' for the last one", () => {
    expect(triesLeft(3)).toBe("You have entered an invalid email and password combination. Please try again. You have 3 tries left.");
    expect(triesLeft(1)).toMatch(/You have 1 try left\.$/);
  });

  it("shows a lockout in rounded hours, minutes or seconds", () => {
    expect(formatWait(3600)).toBe("1 hour");
    expect(formatWait(5400)).toBe("2 hours");
    expect(formatWait(86_400)).toBe("24 hours");
    expect(formatWait(899)).toBe("15 minutes");
    expect(formatWait(60)).toBe("1 minute");
    expect(formatWait(59)).toBe("59 seconds");
    expect(formatWait(1)).toBe("1 second");
    expect(accountBlocked(900)).toBe(
      "Your account is blocked, please wait 15 minutes to unlock and try again. For immediate assistance, please contact Customer Service.",
    );
  });
});

describe("form rules", () => {
  const good = { firstName: "Ada", lastName: "Lovelace", emailAddress: "ada@example.org", password: "Engine1!note" };

  it("accepts a valid registration", () => {
    expect(errors(registrationSchema, good)).toEqual({});
  });

  it("treats blank and whitespace-only fields as missing", () => {
    expect(errors(registrationSchema, { ...good, firstName: "   " })).toEqual({ firstName: ["This field is required."] });
    expect(errors(registrationSchema, { ...good, lastName: "" })).toEqual({ lastName: ["This field is required."] });
  });

  it("rejects names with brackets, quotes, commas, semicolons, pipes or slashes", () => {
    for (const bad of ["Ada (Countess)", 'Ada "A"', "Lovelace, Ada", "Ada;", "Ada|B", "Ada/B", "Ada\\B"]) {
      expect(errors(registrationSchema, { ...good, firstName: bad }), bad).toEqual({ firstName: ["Please enter a valid first name."] });
    }
    expect(errors(registrationSchema, { ...good, lastName: "O'Brien" })).toEqual({ lastName: ["Please enter a valid last name."] });
    expect(errors(registrationSchema, { ...good, lastName: "Ó Briain-Smith" })).toEqual({});
  });

  it("follows the spec's e-mail pattern, with each form's wording", () => {
    for (const ok of ["a@b.co", "first.last+tag@sub.example.org", "x@[192.0.2.1]"])
      expect(errors(registrationSchema, { ...good, emailAddress: ok }), ok).toEqual({});
    for (const bad of ["a@b", "a@b.c", "a b@c.org", "@c.org", "a@b.c0m"]) {
      expect(errors(registrationSchema, { ...good, emailAddress: bad }), bad).toEqual({
        emailAddress: ["This email address is not valid."],
      });
    }
    // The modal's, and the registration call's 400 (spec §5, §8).
    expect(errors(modalRegistrationSchema, { ...good, emailAddress: "a@b" })).toEqual({ emailAddress: ["Email address is not valid."] });
    expect(errors(modalRegistrationSchema, good)).toEqual({});
    expect(errors(signInSchema, { username: "a@b", password: "x" })).toEqual({ username: ["This field is required."] });
    expect(errors(profileSchema, { emailAddress: "a@b" })).toEqual({ emailAddress: ["Please enter a valid email address."] });
  });

  it("enforces the password rule and its message", () => {
    for (const bad of ["Short1!", "alllower1!x", "ALLUPPER1!X", "NoDigits!!x", "NoSpecial1x", "Has space1!x"]) {
      expect(errors(registrationSchema, { ...good, password: bad }), bad).toEqual({ password: [PASSWORD_RULE] });
    }
  });

  it("gives change password the spec's messages", () => {
    expect(errors(changePasswordSchema, {})).toEqual({
      currentPassword: ["Current Password is required"],
      newPassword: ["New Password is required"],
    });
    expect(errors(changePasswordSchema, { currentPassword: "x", newPassword: "Engine1!note", confirmPassword: "Engine1!nope" })).toEqual({
      confirmPassword: ["New Password and Confirm Password do not match"],
    });
    expect(errors(changePasswordSchema, { currentPassword: "x", newPassword: "weak", confirmPassword: "weak" })).toEqual({
      newPassword: [PASSWORD_RULE],
    });
  });

  it("keeps profile answers optional and within the spec's option lists", () => {
    expect(errors(profileSchema, { emailAddress: "a@example.org" })).toEqual({});
    expect(errors(profileSchema, { emailAddress: "a@example.org", industry: "Piracy" })).toEqual({
      industry: ["Please select a valid value"],
    });
    expect(
      errors(profileSchema, { emailAddress: "a@example.org", companySize: "10000+", jobTitle: "Retired", industry: "Food & Beverage" }),
    ).toEqual({});
  });
});
