import { expect } from "vitest";
import { register } from "~/server/accounts/registration";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE } from "~/server/desk/audit";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import type { Role } from "~/shared/staff-roles";
import { Reader } from "./reader";

// Staff for the desk's tests through the built server: a reader account, signed in through the
// sign-in page, given roles as the staff command line does, and enrolled through the enrolment
// page with a code from the secret it shows, so that it is inside the desk.

export const STAFF_PASSWORD = "Lantern5!quay";
let counter = 0;

/** A reader account signed in through the sign-in page. */
export async function signedInReader(
  baseUrl: string,
  db: Database,
  firstName: string,
  lastName = "Desk",
): Promise<{ reader: Reader; email: string }> {
  const email = `${firstName.toLowerCase()}.${++counter}.${process.pid}@example.org`;
  const made = await register(db, { firstName, lastName, email, password: STAFF_PASSWORD, optIn: false });
  if (!made.ok) throw new Error(made.reason);
  const reader = new Reader(baseUrl);
  const res = await reader.request("/sign-in", { form: { username: email, password: STAFF_PASSWORD, redirectTo: "/" } });
  expect(res.status).toBe(303);
  return { reader, email };
}

/** A staff member with these roles, inside the desk; `name` is their first name. */
export async function deskStaff(baseUrl: string, db: Database, roles: Role[], name: string = roles.join("-")) {
  const { reader, email } = await signedInReader(baseUrl, db, name);
  const added = await addStaff(db, COMMAND_LINE, email, roles, new Date());
  if (!added.ok) throw new Error(added.reason);
  const enrol = `/desk/enrol?token=${encodeURIComponent(added.token)}`;
  const page = await reader.page(enrol);
  const secret = page("main strong")
    .filter((_, el) => /^[A-Z2-7 ]{20,}$/.test(page(el).text()))
    .text()
    .replace(/ /g, "");
  const res = await reader.request(enrol, { form: { code: totpCode(secret, new Date()) } });
  expect(res.status).toBe(303);
  return { reader, email, name: `${name} Desk`, userId: added.user.id };
}
