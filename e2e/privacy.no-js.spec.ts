import fs from "node:fs";
import { availabilities, insertOrder, SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";
import { expect, mailTo, PASSWORD, registerThroughPage, test, uniqueEmail } from "./fixtures";

// Issue 39's "Done when" for readers' privacy rights, without JavaScript (ADR 089): a reader
// downloads their data and deletes their account; their order survives without them, and the
// address can register again.

test("a reader downloads their data and deletes their account; their order survives without them, and the address registers again", async ({
  page,
  signIn,
  site,
  axe,
}) => {
  const email = uniqueEmail("privacy");
  const { userId } = await signIn(email, { firstName: "Ines", lastName: "Varga" });
  const pick = await availabilities(site.db);
  const order = await insertOrder(site.db, {
    userId,
    email,
    status: "paid",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.hardcover.id }],
  });
  await site.db
    .updateTable("store_order")
    .set({
      ship_first_name: SHIPPING_ADDRESS.firstName,
      ship_last_name: SHIPPING_ADDRESS.lastName,
      ship_address1: SHIPPING_ADDRESS.address1,
      ship_city: SHIPPING_ADDRESS.city,
      ship_state: SHIPPING_ADDRESS.state,
      ship_postal_code: SHIPPING_ADDRESS.postalCode,
      ship_country_code: SHIPPING_ADDRESS.countryCode,
    })
    .where("id", "=", order.id)
    .execute();

  // My account → Download my data: the page, then the file.
  await page.goto("/my-account");
  await page.getByRole("link", { name: "Download my data", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your data" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Orders" })).toBeVisible();
  await expect(page.getByRole("main").getByText(order.number, { exact: true })).toBeVisible();
  await axe(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download my data (a JSON file)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^meridian-review-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8")) as {
    profile: { emailAddress: string; firstName: string };
    orders: { orders: { number: string }[] };
  };
  expect(file.profile).toMatchObject({ emailAddress: email, firstName: "Ines" });
  expect(file.orders.orders.map((o) => o.number)).toEqual([order.number]);

  // My account → Delete my account: a wrong password first, then the right one.
  await page.goto("/my-account");
  await page.getByRole("link", { name: "Delete my account", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Delete my account" })).toBeVisible();
  await axe(page);
  await page.getByLabel("Your password").fill("Not-the-password-1");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("alert").getByRole("link", { name: "Current Password is invalid" })).toBeVisible();
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL((url) => url.pathname === "/account-deleted");
  await expect(page.getByRole("heading", { level: 1, name: "Your account has been deleted" })).toBeVisible();
  expect(await mailTo(site, email, /Your Meridian Review account has been deleted/)).toContain("so we keep 1 order in our books");

  // Signed out: My account asks them to sign in, and their old password opens nothing.
  await page.goto("/my-account");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fmy-account$/);

  // The order survives, made out to them and shipped to its address, but tied to no account.
  const kept = await site.db.selectFrom("store_order").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  expect(kept).toMatchObject({
    user_id: null,
    email: "",
    buyer_name: "Ines Varga",
    status: "paid",
    ship_address1: SHIPPING_ADDRESS.address1,
  });
  expect(await site.db.selectFrom("app_user").select("id").where("id", "=", userId).execute()).toEqual([]);

  // The address registers again, as a new account with nothing of the old one.
  await registerThroughPage(page, email, "/my-account");
  await page.goto("/my-account/data");
  await expect(page.getByRole("main").getByText(email, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("main").getByText(order.number, { exact: true })).toHaveCount(0);
});
