import type { Page } from "@playwright/test";
import { COMMAND_LINE } from "~/server/desk/audit";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import { createReader, expect, PASSWORD, uniqueEmail, type ReaderOptions } from "./fixtures";
import type { Site } from "./site";

// Staff for the desk's browser tests: an account given roles as the staff command line does,
// signed in and enrolled through the pages.

/** A person's name, for a test that tells two staff members apart. */
export type StaffName = Pick<ReaderOptions, "firstName" | "lastName">;

/** A reader account made staff (as `npm run staff -- add` does); answers the address and the enrolment link's path. */
export async function newStaff(
  site: Site,
  label: string,
  roles: Parameters<typeof addStaff>[3],
  name: StaffName = {},
): Promise<{ email: string; link: string }> {
  const email = uniqueEmail(label);
  await createReader(site, email, name);
  const added = await addStaff(site.db, COMMAND_LINE, email, roles, new Date());
  if (!added.ok) throw new Error(added.reason);
  return { email, link: `/desk/enrol?token=${encodeURIComponent(added.token)}` };
}

export async function signInThroughPage(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => url.pathname === "/");
}

/** The secret as the enrolment page shows it in text (the QR code's content). */
export async function secretOnPage(page: Page): Promise<string> {
  const text = await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/).textContent();
  return text!.replace(/ /g, "");
}

/**
 * A new staff member with these roles, inside the desk: signed in with their password, then
 * enrolled with a code made from the secret the enrolment page shows as text, as their app would.
 */
export async function enrolledStaff(
  page: Page,
  site: Site,
  label: string,
  roles: Parameters<typeof addStaff>[3],
  name: StaffName = {},
): Promise<{ email: string; secret: string }> {
  const { email, link } = await newStaff(site, label, roles, name);
  await signInThroughPage(page, email);
  await page.goto(link);
  const secret = await secretOnPage(page);
  await page.getByLabel("Code from your app", { exact: true }).fill(totpCode(secret, new Date()));
  await page.getByRole("button", { name: "Set up and enter the desk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your second factor", exact: true })).toBeVisible();
  return { email, secret };
}
