import type { Page } from "@playwright/test";
import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { runPreorders } from "~/server/store/preorders";
import { PAY_AGAIN } from "~/shared/preorders";
import { addToCart, expect, fillAddress, test, uniqueEmail } from "./fixtures";
import { enrolledStaff } from "./staff";

// Issue 39's "Done when" for the catalogue, without JavaScript, in the browser (ADR 091): a store
// member makes a product with a format on sale at the desk, and a shopper buys it at once through
// the sandbox checkout; then the store member prices it anew from now, and the shopper's next
// order pays the new price while the first order still shows the old one. Then a coming-soon
// format charged when it ships is pre-ordered, and waits for its date at the desk; its card is
// declined on the date, and the shopper pays for it with another card from the order's page.

/** A guest's checkout of what is in their cart, paid with the sandbox's test card; answers the order's page. */
async function checkout(shopper: Page, email: string): Promise<string> {
  await shopper.goto("/shipping-payment");
  await shopper.getByLabel("Email address").fill(email);
  await fillAddress(shopper);
  await shopper.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(shopper.getByRole("heading", { level: 1, name: "Review your order" })).toBeVisible();
  await shopper.getByRole("button", { name: /^Place order: \$/ }).click();
  await expect(shopper.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  await shopper.getByLabel("Card number").fill("4242 4242 4242 4242");
  await shopper.getByRole("button", { name: /^Pay / }).click();
  await expect(shopper.getByRole("heading", { level: 1, name: "Thank you for your order" })).toBeVisible();
  await shopper.getByRole("link", { name: "View your order and receipt" }).click();
  await expect(shopper.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  return shopper.url();
}

/** The unit price an order's page shows for its one line. */
const linePrice = (shopper: Page) => shopper.locator('main td[data-label="Price"]').first();

test("a store member adds a product that a shopper buys at once; a new price from now applies to the next order only; a coming-soon format is pre-ordered, declined on its date and paid again", async ({
  page,
  browser,
  site,
  js,
}) => {
  test.setTimeout(180_000);
  await enrolledStaff(page, site, "catalogue-store", ["store"], { firstName: "Stella", lastName: "Store" });
  await page.goto("/desk");
  await page.getByRole("navigation", { name: "Desk", exact: true }).getByRole("link", { name: "Products" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
  await page.getByRole("link", { name: "New product" }).click();

  const title = `The Harbour Almanac ${Date.now()}`;
  // Nothing filled in: the form says what is missing, and nothing is made.
  await page.getByLabel("Title").fill("");
  await page.getByRole("button", { name: "Add the product" }).click();
  await expect(page.getByRole("alert").getByRole("link", { name: "Enter a title of up to 300 characters." })).toBeVisible();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Product type").selectOption("Book");
  await page.getByLabel("Topic").selectOption("Strategy");
  await page.getByLabel("Authors (optional)").fill("Rosa Lind");
  await page.getByLabel("Summary").fill("Tides, ledgers and the patience of ports.");
  await page.getByLabel("Description").fill("A year in the life of a working harbour, told through its books.");
  await page.getByLabel("Pages").fill("180");
  await page.getByRole("button", { name: "Add the product" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Product added.");

  await page.getByRole("link", { name: "Add a format" }).click();
  await page.getByLabel("Format", { exact: true }).fill("Paperback");
  await page.getByLabel("Product-type code").fill("PBK");
  await page.getByLabel("Line type").selectOption("SHIP");
  await page.getByLabel("Status").selectOption("on-sale");
  await page.getByLabel("Price (US dollars)").fill("24.00");
  await page.getByRole("button", { name: "Add the format" }).click();
  await expect(page.getByRole("status")).toHaveText("Format added. Shoppers see it at once.");
  await expect(page.getByText("Price now: $24.00 (its list price).")).toBeVisible();
  const productUrl = (await page.getByRole("link", { name: "its page" }).getAttribute("href"))!;
  expect(productUrl).toMatch(/^\/product\/the-harbour-almanac-\d+\/\d+$/);

  // A shopper buys it at once.
  const shopperContext = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
  const shopper = await shopperContext.newPage();
  const email = uniqueEmail("catalogue-shopper");
  await addToCart(shopper, productUrl);
  await shopper.goto("/shopping-cart");
  await expect(shopper.getByText("Your order keeps the prices it is placed at.")).toBeVisible();
  const firstOrder = await checkout(shopper, email);
  await expect(linePrice(shopper)).toHaveText("$24.00");
  await expect(shopper.getByRole("main")).toContainText(title);

  // The store member prices it anew, from now.
  await page.getByLabel("New price (US dollars)").fill("26.00");
  await page.getByRole("button", { name: "Schedule the price" }).click();
  await expect(page.getByRole("status")).toContainText("Price scheduled.");
  await expect(page.getByText(/^Price now: \$26\.00 \(since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)\.$/)).toBeVisible();
  await expect(page.getByRole("table", { name: /Price changes/ }).getByRole("cell", { name: "In force" })).toBeVisible();

  // The next order pays the new price; the first still shows the old one.
  await shopper.goto(productUrl);
  await expect(shopper.getByText("$26.00").first()).toBeVisible();
  await addToCart(shopper, productUrl);
  await checkout(shopper, email);
  await expect(linePrice(shopper)).toHaveText("$26.00");
  await shopper.goto(firstOrder);
  await expect(linePrice(shopper)).toHaveText("$24.00");

  // A hardcover coming later, charged when it ships (ADR 092): the shopper pre-orders it, and the
  // desk's order page holds it for its date.
  await page.getByRole("link", { name: "The product's details" }).click();
  await page.getByRole("link", { name: "Add a format" }).click();
  await page.getByLabel("Format", { exact: true }).fill("Hardcover");
  await page.getByLabel("Product-type code").fill("HBK");
  await page.getByLabel("Line type").selectOption("SHIP");
  await page.getByLabel("Status").selectOption("coming-soon");
  await page.getByLabel("On sale from (for coming soon)").fill("2099-03-01");
  await page.getByLabel("Pre-orders are charged").selectOption("ship");
  await page.getByLabel("Price (US dollars)").fill("40.00");
  await page.getByRole("button", { name: "Add the format" }).click();
  await expect(page.getByRole("status")).toHaveText("Format added. Shoppers see it at once.");
  const hardcoverUrl = (await page.getByRole("link", { name: "its page" }).getAttribute("href"))!;
  await shopper.goto(hardcoverUrl);
  await expect(shopper.getByRole("main")).toContainText("Available March 01, 2099");
  await shopper.getByRole("button", { name: "Pre-order" }).click();
  await shopper.goto("/shopping-cart");
  await expect(shopper.getByText("Pre-order: Available March 01, 2099")).toBeVisible();
  await shopper.goto("/shipping-payment");
  await shopper.getByLabel("Email address").fill(email);
  await fillAddress(shopper);
  await shopper.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(shopper.getByText(`Charged when it ships: ${title}.`)).toBeVisible();
  await shopper.getByRole("button", { name: /^Place order: \$/ }).click();
  // Accepted now, declined when charged on the date.
  await shopper.getByLabel("Card number").fill(SANDBOX_CARDS.declinesLater);
  await shopper.getByRole("button", { name: /^Pay / }).click();
  await shopper.getByRole("link", { name: "View your order and receipt" }).click();
  await expect(shopper.getByText("Pre-order: Available March 01, 2099")).toBeVisible();
  const orderNumber = (await shopper.getByRole("heading", { level: 1 }).textContent())!.replace(/^Order /, "");
  await page.goto(`/desk/orders/${orderNumber}`);
  await expect(page.getByText("Pre-order, awaiting its date: available 2099-03-01; charged when it ships")).toBeVisible();

  // The scheduled job's round the day after that date: the card is declined.
  const sandbox = createSandboxProvider(site.db, { siteUrl: site.url, webhookSecret: "not-used-to-charge" });
  const mail = {
    mailer: { send: async () => ({ messageId: "<preorder@e2e>" }) },
    siteUrl: site.url,
    publisher: { name: "Meridian Review", addressLines: [], taxId: null },
  };
  await runPreorders(site.db, sandbox, mail, new Date("2099-03-02T17:00:00Z"));
  await shopper.reload();
  await expect(shopper.getByText("Your card was declined for this pre-order, and nothing was charged for it.")).toBeVisible();
  await shopper.getByRole("button", { name: PAY_AGAIN }).click();
  await expect(shopper.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  await shopper.getByLabel("Card number").fill("4242 4242 4242 4242");
  await shopper.getByRole("button", { name: /^Pay / }).click();
  await expect(shopper.getByRole("heading", { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
  await expect(shopper.getByText("Pre-order: Available March 01, 2099")).toBeVisible();
  await expect(shopper.getByRole("button", { name: PAY_AGAIN })).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(/^Pre-order, awaiting its date: available 2099-03-01; charged \$\d+\.\d{2} /)).toBeVisible();
  await shopperContext.close();
});
