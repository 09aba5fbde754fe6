import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// "Better together" (spec section 9) on a product page: the product with the products paired with
// it, a total of the checked ones, and one post that adds them all.

const HARDCOVER = "/product/the-patient-ledger/1001";
const LEDGER = "The Patient Ledger: Capital Allocation for Long-Horizon Companies";
const CASE = "Brightwater Utilities: A Board Confronts Succession";
const TOOLKIT = "Scenario Planning Toolkit";

const block = (page: Page) => page.getByRole("region", { name: "Better together" });
const box = (page: Page, title: string) => block(page).getByRole("checkbox", { name: title });
const total = (page: Page) => block(page).getByRole("status");

test("the checked items go to the cart in one post; with JS the total follows the boxes", async ({ page, js, axe }) => {
  await page.goto(HARDCOVER);
  await expect(box(page, `This item: ${LEDGER}`)).toBeChecked();
  await expect(box(page, CASE)).toBeChecked();
  await expect(box(page, TOOLKIT)).toBeChecked();
  // $32.00 + $8.95 + $49.00
  await expect(total(page)).toHaveText("Total for all 3 items: $89.95");
  await axe(page);

  await box(page, CASE).uncheck();
  if (js) {
    await expect(total(page)).toHaveText("Total for 2 of 3 items: $81.00");
    await box(page, `This item: ${LEDGER}`).uncheck();
    await box(page, TOOLKIT).uncheck();
    await expect(total(page)).toHaveText("Total for 0 of 3 items: $0.00");
    await expect(block(page).getByRole("button", { name: "Add selected to cart" })).toBeDisabled();
    await box(page, TOOLKIT).check();
    await expect(total(page)).toHaveText("Total for 1 of 3 items: $49.00");
    await box(page, `This item: ${LEDGER}`).check();
    await expect(total(page)).toHaveText("Total for 2 of 3 items: $81.00");
  } else {
    // Without JS the total stays that of them all; the server adds what is checked.
    await expect(total(page)).toHaveText("Total for all 3 items: $89.95");
  }

  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(new URL(r.url()).pathname);
  });
  await block(page).getByRole("button", { name: "Add selected to cart" }).click();
  await expect(page).toHaveURL(/\/shopping-cart\/added\?line=[0-9a-f-]{36}&line=[0-9a-f-]{36}$/);
  // With JS the router posts to the same action as its data request.
  expect(posts).toEqual([js ? "/shopping-cart.data" : "/shopping-cart"]);
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1, name: "Added to your cart" })).toBeVisible();
  await expect(main.getByRole("status")).toHaveText("2 items added to your cart.");
  await expect(main.getByRole("link", { name: LEDGER })).toBeVisible();
  await expect(main.getByRole("link", { name: TOOLKIT, exact: true })).toBeVisible();
  await expect(main.getByRole("link", { name: CASE })).toHaveCount(0);

  await main.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByRole("table", { name: "Items to ship" }).locator("tbody tr")).toContainText(LEDGER);
  const digital = page.getByRole("table", { name: "Digital items" }).locator("tbody tr");
  await expect(digital).toHaveCount(1);
  await expect(digital).toContainText(TOOLKIT);
});

test("posting with nothing checked adds nothing, and says why", async ({ page, js }) => {
  await page.goto(HARDCOVER);
  for (const title of [`This item: ${LEDGER}`, CASE, TOOLKIT]) await box(page, title).uncheck();
  const add = block(page).getByRole("button", { name: "Add selected to cart" });
  if (js) {
    await expect(add).toBeDisabled();
    return;
  }
  await add.click();
  const apology = page.getByRole("alert");
  await expect(apology.getByRole("heading", { name: "Our apologies, something went wrong." })).toBeVisible();
  await expect(apology).toContainText("Choose at least one item to add.");
  await expect(page.locator("header[data-site-header]").getByRole("link", { name: /^Cart \(/ })).toHaveText("Cart (0 items)");
});
