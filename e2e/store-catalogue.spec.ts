import type { Page } from "@playwright/test";
import { specDay } from "~/tests/helpers/seed-dates";
import { expect, test } from "./fixtures";

// The store's catalogue with and without JavaScript: browsing by product type and topic,
// paging, product pages and their format selector, coming-soon items.

const cards = (page: Page) => page.locator("main ol > li article");

test("the store is browsable by product type and topic, and pages with numbered links alone", async ({ page, axe, site }) => {
  const products = Number(
    (
      await site.db
        .selectFrom("product")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  // Eight a page: the catalogue's third page holds what is left after two full ones.
  expect(products).toBeGreaterThan(16);
  expect(products).toBeLessThanOrEqual(24);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Store" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Store" })).toBeVisible();
  await expect(cards(page)).toHaveCount(8);
  await axe(page);

  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
  await pagination.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/store\?page=2$/);
  await expect(pagination.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
  await expect(cards(page)).toHaveCount(8);
  await pagination.getByRole("link", { name: "Page 3" }).click();
  await expect(cards(page)).toHaveCount(products - 16);

  const types = page.getByRole("navigation", { name: "Product types" });
  await types.getByRole("link", { name: "Case Study" }).click();
  await expect(page).toHaveURL(/\/store\?type=case-study$/);
  await expect(types.getByRole("link", { name: "Case Study" })).toHaveAttribute("aria-current", "page");
  await expect(cards(page)).toHaveCount(3);
  for (const card of await cards(page).all()) await expect(card).toContainText("Case Study");

  const filter = page.getByRole("form", { name: "Filter products" });
  await filter.getByLabel("Product type").selectOption({ label: "Toolkit" });
  await filter.getByLabel("Topic").selectOption({ label: "Strategy" });
  await filter.getByRole("button", { name: "Show products" }).click();
  await expect(page).toHaveURL(/\/store\?type=toolkit&topic=strategy$/);
  await expect(page.getByRole("heading", { level: 2, name: "Toolkit: Strategy" })).toBeVisible();
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("Spreadsheet, Slides");

  await page.getByRole("link", { name: "Clear all choices" }).click();
  await expect(page).toHaveURL(/\/store$/);
  await expect(cards(page)).toHaveCount(8);
  await expect(page.getByRole("link", { name: "Load more items" })).toHaveCount(0);
});

test("the store's one form searches, filters by format and sorts, and its pager keeps the choices", async ({ page, axe, site }) => {
  const pdfs = Number(
    (
      await site.db
        .selectFrom("product_availability")
        .select((eb) => eb.fn.count("product_id").distinct().as("n"))
        .where("format", "=", "PDF")
        .where("status", "!=", "R")
        .executeTakeFirstOrThrow()
    ).n,
  );
  // Two pages of them: eight, then the rest.
  expect(pdfs).toBeGreaterThan(8);
  expect(pdfs).toBeLessThanOrEqual(16);
  await page.goto("/store");
  const form = page.getByRole("form", { name: "Filter products" });
  const count = page.getByRole("main").getByRole("status");
  await form.getByLabel("Format").selectOption({ label: "PDF" });
  await form.getByLabel("Sort by").selectOption({ label: "Lowest price" });
  await form.getByRole("button", { name: "Show products" }).click();
  await expect(page).toHaveURL(/\/store\?format=pdf&sort=price-low$/);
  await expect(count).toHaveText(`${pdfs} products`);
  await expect(cards(page)).toHaveCount(8);
  await axe(page);

  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/store\?format=pdf&sort=price-low&page=2$/);
  await expect(cards(page)).toHaveCount(pdfs - 8);
  await expect(form.getByLabel("Format")).toHaveValue("pdf");
  await expect(form.getByLabel("Sort by")).toHaveValue("price-low");

  await form.getByLabel("Search the store").fill("ledger");
  await form.getByRole("button", { name: "Show products" }).click();
  await expect(page).toHaveURL(/\/store\?format=pdf&q=ledger&sort=price-low$/);
  await expect(count).toHaveText("1 product matching “ledger”");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("The Patient Ledger");

  await form.getByLabel("Search the store").fill("nonesuchword");
  await form.getByRole("button", { name: "Show products" }).click();
  await expect(page.getByText("No products match these choices.")).toBeVisible();
  await axe(page);
  await page.getByRole("link", { name: "Clear all choices" }).click();
  await expect(page).toHaveURL(/\/store$/);
  await expect(count).toHaveText(/^\d+ products$/);
  await expect(form.getByLabel("Search the store")).toHaveValue("");
});

test("a product page lists every format, marks the current one, and switches between them", async ({ page, axe }) => {
  await page.goto("/store?type=book");
  await page.getByRole("link", { name: /^The Patient Ledger/ }).click();
  await expect(page).toHaveURL(/\/product\/the-patient-ledger\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^The Patient Ledger/);
  await expect(page.getByRole("link", { name: "Finance & Accounting" })).toHaveAttribute("href", "/topic/subject/finance-and-accounting");

  const details = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Line type" }) });
  await expect(details.getByRole("row")).toHaveCount(4);
  // The formats are a choice in the buy box, each with its price.
  const formats = page.getByRole("navigation", { name: "Formats" });
  await expect(formats.getByRole("link")).toHaveCount(3);
  await expect(formats.getByRole("link", { name: "Hardcover, English, $32.00" })).toHaveAttribute("aria-current", "page");
  const buy = page.getByRole("region", { name: "Hardcover, English" });
  await expect(buy).toContainText("$32.00");
  await expect(buy.getByLabel("Quantity")).toHaveValue("1");
  await expect(buy).not.toContainText("Download after purchase");
  await expect(page.getByRole("table", { name: "Volume pricing" }).getByRole("row")).toHaveCount(4);
  await axe(page);

  await formats.getByRole("link", { name: "Ebook, English" }).click();
  await expect(formats.getByRole("link", { name: "Ebook, English" })).toHaveAttribute("aria-current", "page");
  await expect(formats.getByRole("link", { name: "Hardcover, English" })).not.toHaveAttribute("aria-current", "page");
  const ebook = page.getByRole("region", { name: "Ebook, English" });
  await expect(ebook).toContainText("$24.99");
  await expect(ebook).toContainText("Download after purchase");
  await expect(ebook.getByRole("button", { name: "Add to cart" })).toBeVisible();
  await expect(ebook.getByLabel("Quantity")).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Volume pricing" })).toHaveCount(0);
});

test("a coming-soon item shows when it goes on sale and is pre-ordered into the cart with its date", async ({ page, site }) => {
  // The seed puts its date days after seeding: as the site's database has it, in the spec's format.
  const { available_date } = await site.db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select("a.available_date")
    .where("p.slug", "=", "machines-at-the-table")
    .where("a.code", "=", "HBK")
    .executeTakeFirstOrThrow();
  const available = `Available ${specDay(available_date!)}`;
  await page.goto("/store?type=book");
  const card = cards(page).filter({ hasText: "Machines at the Table" });
  await expect(card).toContainText(available);
  await card.getByRole("link", { name: /^Machines at the Table/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Machines at the Table/);
  await expect(page.getByRole("region", { name: "Hardcover, English" })).toContainText(available);
  await expect(page.getByRole("button", { name: /Add .*to cart/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Pre-order" }).click();
  await expect(page.getByText(`Coming soon: ${available}`)).toBeVisible();
  await page.goto("/shopping-cart");
  await expect(page.getByText(`Pre-order: ${available}`)).toBeVisible();
});

test("a case study offers copyright permissions at their own price, and the short product link opens its page", async ({ page }) => {
  await page.goto("/store?type=case-study");
  await page.getByRole("link", { name: /^Harrow & Vane Textiles/ }).click();
  await expect(page.getByRole("heading", { level: 3, name: "Copyright permissions" })).toBeVisible();
  await expect(page.getByText("$1.50 a copy")).toBeVisible();
  const prices = page.getByRole("table", { name: "Permission prices" });
  await expect(prices.locator("tbody tr")).toHaveText(["1–99$1.50", "100–499$1.25", "500 or more$1.00"]);
  await expect(page.getByLabel("Number of copies")).toHaveValue("1");
  await expect(page.getByRole("button", { name: "Add permissions to cart" })).toBeVisible();
  // One copy to a customer: no volume prices to show.
  await expect(page.getByRole("table", { name: "Volume pricing" })).toHaveCount(0);

  await page.goto("/product/1");
  await expect(page).toHaveURL(/\/product\/the-patient-ledger\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^The Patient Ledger/);
});

test("a book's page lists its chapters, and a magazine issue's the articles in it, each opening the article", async ({ page, axe }) => {
  await page.goto("/product/the-patient-ledger/1001");
  const chapters = page.getByRole("region", { name: "Contents" }).getByRole("listitem");
  await expect(chapters.first()).toHaveText("Preface");
  await expect(chapters).toHaveCount(4);
  await expect(chapters.nth(1)).toHaveText(/^1\. /);

  await page.goto("/store?type=magazine-issue");
  await page
    .getByRole("link", { name: /March-April 2026/ })
    .first()
    .click();
  const issue = page.getByRole("region", { name: "In this issue" });
  await expect(issue.getByRole("link")).toHaveCount(3);
  await axe(page);
  await issue.getByRole("link", { name: "Kestrel Cold Chain and the Automation Bet" }).click();
  // A guest without JS first passes the meter's cookie check (?cookie-check=…).
  await expect(page).toHaveURL(/\/2026\/03\/kestrel-cold-chain-and-the-automation-bet(\?cookie-check=\d+)?$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kestrel Cold Chain and the Automation Bet");
});
