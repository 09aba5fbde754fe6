import { totpCode } from "~/server/desk/totp";
import { expect, test } from "./fixtures";
import { newStaff, secretOnPage, signInThroughPage } from "./staff";

// A staff member signs in with their password, sets up TOTP from the enrolment link (reading
// the secret off the page as a person would type it into their app), reaches the desk, leaves
// it, and comes back through the door with the app's next code.

test("a staff member signs in with a password and a TOTP code, and reaches the desk", async ({ page, site, axe }) => {
  const { email, link } = await newStaff(site, "desk-e2e", ["editor"]);
  await page.goto("/desk");
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();

  await signInThroughPage(page, email);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Set up your second factor" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of your second factor's secret" })).toBeVisible();
  await axe(page);
  const secret = await secretOnPage(page);
  await page.getByLabel("Code from your app").fill(totpCode(secret, new Date()));
  await page.getByRole("button", { name: "Set up and enter the desk" }).click();

  await expect(page.getByRole("heading", { level: 2, name: "Your recovery codes" })).toBeVisible();
  await expect(page.locator("main li").filter({ hasText: /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/ })).toHaveCount(10);
  await page.getByRole("link", { name: "Meridian Review Desk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "The desk" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Desk areas" }).getByRole("heading", { level: 2 })).toHaveText([
    "Editorial",
    "Video and audio",
  ]);
  // What is waiting for an editor: each count leads to the list that holds it.
  const waiting = page.getByRole("region", { name: "Waiting" }).getByRole("link");
  await expect(waiting).toHaveText([/^\d+\s*Drafts?$/, /^\d+\s*Scheduled to publish$/]);
  await expect(waiting.first()).toHaveAttribute("href", "/desk/articles?status=draft");
  await axe(page);

  await page.getByRole("button", { name: "Leave the desk" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goto("/desk");
  await expect(page.getByRole("heading", { level: 1, name: "Enter the desk" })).toBeVisible();
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Enter the desk" }).click();
  await expect(page.getByText("You have 4 tries left.").first()).toBeVisible();
  await axe(page);
  // The app's next code (the door accepts one step of drift; the enrolment's code is spent).
  await page.getByLabel("Code").fill(totpCode(secret, new Date(Date.now() + 30_000)));
  await page.getByRole("button", { name: "Enter the desk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "The desk" })).toBeVisible();
});
