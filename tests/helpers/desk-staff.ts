import { register } from "~/server/accounts/registration";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE } from "~/server/desk/audit";
import { openEnrolment } from "~/server/desk/second-factor";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import type { Role } from "~/shared/staff-roles";
import { Reader } from "./reader";

// A staff member for tests through the built server: a reader account made staff as the staff
// command line does, signed in at /sign-in and let into the desk with a TOTP code on the
// enrolment page.

export const STAFF_PASSWORD = "Lantern5!quay";
let counter = 0;

/** A reader signed in through the sign-in page; answers the reader and their address. */
export async function signedInReader(baseUrl: string, db: Database, name: string): Promise<{ reader: Reader; email: string }> {
  const email = `${name}.${++counter}.${process.pid}@example.org`;
  const made = await register(db, { firstName: name, lastName: "Desk", email, password: STAFF_PASSWORD, optIn: false });
  if (!made.ok) throw new Error(made.reason);
  const reader = new Reader(baseUrl);
  const res = await reader.request("/sign-in", { form: { username: email, password: STAFF_PASSWORD, redirectTo: "/" } });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  return { reader, email };
}

/** A staff member with these roles, inside the desk. */
export async function deskMember(baseUrl: string, db: Database, roles: Role[]): Promise<{ reader: Reader; email: string }> {
  const { reader, email } = await signedInReader(baseUrl, db, roles.join("-"));
  const added = await addStaff(db, COMMAND_LINE, email, roles, new Date());
  if (!added.ok) throw new Error(added.reason);
  const path = `/desk/enrol?token=${encodeURIComponent(added.token)}`;
  // The page fixes the secret on its first visit; the code is read from it as an app would.
  const page = await reader.request(path);
  if (page.status !== 200) throw new Error(`the enrolment page answered ${page.status}`);
  const { secret } = (await openEnrolment(db, added.token, new Date()))!;
  const entered = await reader.request(path, { form: { code: totpCode(secret, new Date()) } });
  if (entered.status !== 303) throw new Error(`enrolment answered ${entered.status}`);
  return { reader, email };
}
