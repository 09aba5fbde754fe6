import type { Locator, Page } from "@playwright/test";
import { accountControl, addForm, expect, logOutFromHeader, PASSWORD, test, uniqueEmail } from "./fixtures";

// The cart with and without JavaScript, starting from product pages: adding (confirmation with
// "You might also like", or the apology), the header's mini cart, the stepper, the estimate, and
// a guest cart that follows the shopper into their account at sign-in.

const LEDGER = "The Patient Ledger: Capital Allocation for Long-Horizon Companies";
const HARDCOVER = { id: 1001, path: "/product/the-patient-ledger/1001" };
const EBOOK = { id: 1002, path: "/product/the-patient-ledger/1002" };
const APOLOGY = "Our apologies, something went wrong.";

const header = (page: Page) => page.locator("header[data-site-header]");
const cartLink = (page: Page) => header(page).getByRole("link", { name: /^Cart \(/ });

/** Adds from the product page; returns where the confirmation is (the dialog with JS, the page without). */
async function addFromProductPage(page: Page, js: boolean, product: { id: number; path: string }, quantity?: string): Promise<Locator> {
  await page.goto(product.path);
  const form = addForm(page, product.id);
  if (quantity) await form.getByLabel("Quantity").fill(quantity);
  await form.getByRole("button", { name: "Add to Cart" }).click();
  if (js) {
    const dialog = page.getByRole("dialog", { name: "Added to your cart" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${product.path}$`));
    return dialog;
  }
  await expect(page).toHaveURL(/\/shopping-cart\/added\?line=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Added to your cart" })).toBeVisible();
  return page.locator("main");
}

/** A line of the cart page, by the section it is listed in. */
const cartLine = (page: Page, section: "Items to ship" | "Digital items") => page.getByRole("table", { name: section }).locator("tbody tr");

test("a guest adds a hardcover and an ebook, sees each confirmation, and steps quantities in the cart", async ({ page, js, axe }) => {
  const confirmation = await addFromProductPage(page, js, HARDCOVER, "2");
  await expect(confirmation.getByRole("status")).toContainText("2 items");
  await expect(confirmation.getByRole("link", { name: LEDGER })).toBeVisible();
  await expect(confirmation.locator("dl")).toContainText("Hardcover");
  await expect(confirmation.getByRole("heading", { name: "You might also like" })).toBeVisible();
  await expect(confirmation.getByRole("heading", { name: "You might also like" }).locator("xpath=..").getByRole("listitem")).toHaveCount(4);
  await axe(page);
  if (js) await confirmation.getByRole("button", { name: "Continue shopping" }).click();
  await expect(cartLink(page)).toHaveText("Cart (2 items)");

  const second = await addFromProductPage(page, js, EBOOK);
  await expect(second.locator("dl")).toContainText("Ebook");
  await second.getByRole("link", { name: "Checkout" }).click();
  await expect(page).toHaveURL(/\/shopping-cart$/);
  await expect(page.getByRole("heading", { level: 1, name: "Shopping Cart" })).toBeVisible();
  await expect(cartLink(page)).toHaveText("Cart (3 items)");

  const ship = cartLine(page, "Items to ship");
  const digital = cartLine(page, "Digital items");
  await expect(ship).toHaveCount(1);
  await expect(ship.getByLabel(`Quantity of ${LEDGER}`)).toHaveValue("2");
  await expect(ship).toContainText("$64.00");
  await expect(ship.getByText("Ships to you", { exact: true })).toBeVisible();
  await expect(digital).toContainText("Ebook");
  await expect(page.getByText("Calculated at checkout")).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Checkout" })).toHaveAttribute("href", "/shipping-payment");
  await axe(page);

  // With JS the stepper updates the page in place: the marker set here would not survive a reload.
  if (js) await page.evaluate(() => ((window as unknown as { cartMarker: boolean }).cartMarker = true));
  await ship.getByRole("button", { name: `Increase quantity of ${LEDGER}` }).click();
  await expect(ship.getByLabel(`Quantity of ${LEDGER}`)).toHaveValue("3");
  await expect(ship).toContainText("$96.00");
  await expect(cartLink(page)).toHaveText("Cart (4 items)");

  // The quantity box takes any number, with Update or Enter; anything else is explained beside it.
  await ship.getByLabel(`Quantity of ${LEDGER}`).fill("4");
  await ship.getByLabel(`Quantity of ${LEDGER}`).press("Enter");
  await expect(ship).toContainText("$128.00");
  await expect(cartLink(page)).toHaveText("Cart (5 items)");
  await ship.getByLabel(`Quantity of ${LEDGER}`).fill("abc");
  await ship.getByRole("button", { name: `Update quantity of ${LEDGER}` }).click();
  await expect(ship.getByText("Please enter a valid number.")).toBeVisible();
  if (!js) await expect(page.getByRole("alert").getByRole("link", { name: "Please enter a valid number." })).toBeVisible();
  await expect(ship).toContainText("$128.00");

  // A digital item stays at one.
  await expect(digital.getByRole("button", { name: `Increase quantity of ${LEDGER}` })).toBeDisabled();
  await expect(digital).toContainText("One per order");

  for (const expected of ["3", "2", "1"]) {
    await ship.getByRole("button", { name: `Decrease quantity of ${LEDGER}` }).click();
    await expect(ship.getByLabel(`Quantity of ${LEDGER}`)).toHaveValue(expected);
  }
  await ship.getByRole("button", { name: `Decrease quantity of ${LEDGER}` }).click();
  await expect(page.getByRole("table", { name: "Items to ship" })).toHaveCount(0);
  await expect(cartLink(page)).toHaveText("Cart (1 item)");
  if (js) expect(await page.evaluate(() => (window as unknown as { cartMarker?: boolean }).cartMarker)).toBe(true);

  await digital.getByRole("button", { name: `Remove ${LEDGER}` }).click();
  await expect(page.getByText("Your Shopping Cart is empty.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Visit Our Store" })).toHaveAttribute("href", "/store");
});

test("the quantity box explains a bad number, and an add that cannot be done shows the apology", async ({ page, js, axe }) => {
  await page.goto(HARDCOVER.path);
  const form = addForm(page, HARDCOVER.id);
  await form.getByLabel("Quantity").fill("0");
  await form.getByRole("button", { name: "Add to Cart" }).click();
  if (js) {
    // Checked in the browser before anything is posted.
    await expect(form.getByText("Please enter a valid number.")).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  } else {
    await expect(page).toHaveTitle(/^Error: Shopping Cart/);
    const apology = page.getByRole("alert");
    await expect(apology.getByRole("heading", { name: APOLOGY })).toBeVisible();
    await expect(apology).toContainText("Please enter a valid number.");
    await expect(apology).toContainText(`Product id: ${HARDCOVER.id}`);
    await expect(apology).toContainText("+1 800 555 0142");
    await axe(page);
  }

  // An ebook is sold one to an order: a second add is refused.
  const added = await addFromProductPage(page, js, EBOOK);
  if (js) await added.getByRole("button", { name: "Continue shopping" }).click();
  await page.goto(EBOOK.path);
  await addForm(page, EBOOK.id).getByRole("button", { name: "Add to Cart" }).click();
  const apology = js ? page.getByRole("dialog", { name: APOLOGY }) : page.getByRole("alert");
  await expect(apology.getByRole("heading", { name: APOLOGY })).toBeVisible();
  await expect(apology).toContainText("already in your cart");
  await expect(apology).toContainText(`Product id: ${EBOOK.id}`);
  await expect(apology).toContainText("+1 617 555 0199");
  await axe(page);
  await expect(cartLink(page)).toHaveText("Cart (1 item)");
});

test("the header's mini cart: empty, then items with the total and View Cart", async ({ page, js }) => {
  await page.goto("/the-latest");
  await expect(cartLink(page)).toHaveText("Cart (0 items)");
  await cartLink(page).click();
  if (js) {
    const flyout = header(page).getByRole("dialog", { name: "Your shopping cart" });
    await expect(flyout.getByText("Your Shopping Cart is empty.")).toBeVisible();
    await expect(flyout.getByRole("link", { name: "Visit Our Store" })).toHaveAttribute("href", "/store");
    await page.keyboard.press("Escape");
    await expect(flyout).toHaveCount(0);
  } else {
    await expect(page).toHaveURL(/\/shopping-cart$/);
    await expect(page.getByText("Your Shopping Cart is empty.")).toBeVisible();
  }

  const added = await addFromProductPage(page, js, HARDCOVER, "2");
  if (js) await added.getByRole("button", { name: "Continue shopping" }).click();
  await page.goto("/the-latest");
  await cartLink(page).click();
  if (js) {
    const flyout = header(page).getByRole("dialog", { name: "Your shopping cart" });
    await expect(flyout.getByRole("link", { name: LEDGER })).toBeVisible();
    await expect(flyout.getByRole("listitem")).toHaveCount(1);
    await expect(flyout.getByRole("listitem")).toContainText("Hardcover");
    await expect(flyout.getByRole("listitem")).toContainText("Qty 2");
    await expect(flyout.getByRole("listitem")).toContainText("$64.00");
    await expect(flyout).toContainText("Total: $64.00");
    await flyout.getByRole("link", { name: "View Cart" }).click();
  }
  await expect(page).toHaveURL(/\/shopping-cart$/);
  await expect(cartLine(page, "Items to ship")).toHaveCount(1);
});

test("an estimate fills in tax and shipping, and is kept for the cart", async ({ page, js }) => {
  await addFromProductPage(page, js, HARDCOVER, "1");
  await page.goto("/shopping-cart");
  const estimate = page.getByRole("region", { name: "Estimate tax and shipping" });
  await estimate.getByLabel("Country").selectOption("US");
  await estimate.getByLabel("State or province").selectOption("NY");
  await estimate.getByLabel("ZIP or postal code").fill("10001");
  await estimate.getByRole("button", { name: "Estimate" }).click();
  const summary = page.getByRole("region", { name: "Order summary" });
  // $32.00 at New York's 4% is $1.28; one copy by Standard shipping is $5.95.
  await expect(summary).toContainText("Shipping (Standard)");
  await expect(summary).toContainText("$1.28");
  await expect(summary).toContainText("$5.95");
  await expect(summary).toContainText("$39.23");
  await page.goto("/the-latest");
  await page.goto("/shopping-cart");
  await expect(page.getByRole("region", { name: "Order summary" })).toContainText("$39.23");
});

test("a guest's cart joins the reader's own cart when they sign in", async ({ page, js, signIn }) => {
  const email = uniqueEmail("cart-merge");
  await signIn(email, { from: "/the-latest" });
  await logOutFromHeader(page, js);
  await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(cartLink(page)).toHaveText("Cart (0 items)");

  const added = await addFromProductPage(page, js, HARDCOVER, "2");
  if (js) await added.getByRole("button", { name: "Continue shopping" }).click();
  await addFromProductPage(page, js, EBOOK);

  await page.goto("/sign-in?redirectTo=%2Fshopping-cart");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/shopping-cart$/);
  await expect(accountControl(page, "My account: Grace Hopper")).toBeVisible();
  await expect(cartLine(page, "Items to ship").getByLabel(`Quantity of ${LEDGER}`)).toHaveValue("2");
  await expect(cartLine(page, "Digital items")).toHaveCount(1);
  await expect(cartLink(page)).toHaveText("Cart (3 items)");

  // Signed out, the browser is a guest with an empty cart; the reader's cart waits in the account.
  await logOutFromHeader(page, js);
  await expect(cartLink(page)).toHaveText("Cart (0 items)");
});

test("the mini cart counts a permission line once, whatever copies it licenses", async ({ page }) => {
  await page.goto("/store?type=case-study");
  await page.getByRole("link", { name: /^Harrow & Vane Textiles/ }).click();
  await page.getByLabel("Number of copies").fill("25");
  await page.getByRole("button", { name: "Add permissions to cart" }).click();
  await expect(cartLink(page)).toHaveText("Cart (1 item)");
  await page.goto("/shopping-cart");
  await expect(page.getByText(/Copyright permissions: Harrow & Vane Textiles/).first()).toBeVisible();
  await expect(cartLink(page)).toHaveText("Cart (1 item)");
});
