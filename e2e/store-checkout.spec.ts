import type { Page } from "@playwright/test";
import { addToCart, expect, fillAddress, mailTo, test, uniqueEmail } from "./fixtures";

// Checkout with and without JavaScript: a guest and a signed-in shopper each buy a print item
// and an ebook, through shipping and payment, the review, and the sandbox payment page (a
// declined card first for the guest), to the order page and the confirmation e-mail.

/** Seed catalogue: the first book's hardcover (ships) and its ebook. */
const HARDCOVER = "/product/the-patient-ledger/1001";
const EBOOK = "/product/the-patient-ledger/1002";

/** Changes the country: with JS the provinces appear at once; without, after "Update". */
async function chooseCountry(page: Page, js: boolean, code: string) {
  await page.getByLabel("Country").selectOption(code);
  if (!js) await page.getByRole("button", { name: "Update states and provinces for this country" }).click();
}

async function placeAndPay(page: Page, declineFirst: boolean) {
  await page.getByRole("button", { name: /^Place order: \$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  if (declineFirst) {
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("alert")).toHaveText("Your card was declined. No payment was taken.");
  }
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
}

/**
 * Orders the hardcover as a signed-in reader, opens its payment page and leaves by "Cancel and
 * go back", as a shopper who changes their mind does: the order's page, awaiting payment.
 * Returns the payment page's address.
 */
async function orderAndLeavePayment(page: Page): Promise<string> {
  await addToCart(page, HARDCOVER);
  await page.goto("/shipping-payment");
  await fillAddress(page);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await page.getByRole("button", { name: /^Place order: \$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  const paymentPage = page.url();
  await page.getByRole("link", { name: "Cancel and go back" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  return paymentPage;
}

test("a guest buys a print item and an ebook, after a declined card, and is offered an account", async ({ page, js, axe, site }) => {
  await addToCart(page, HARDCOVER);
  await addToCart(page, EBOOK);
  await page.goto("/shipping-payment");
  await expect(page.getByRole("heading", { level: 1, name: "Shipping and payment" })).toBeVisible();
  await axe(page);

  const email = uniqueEmail("guest-buyer");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("First name").fill("Ada");
  await chooseCountry(page, js, "CA");
  await expect(page.getByLabel("Province or territory")).toContainText("Ontario");
  // What was typed before the country changed is still there.
  await expect(page.getByLabel("First name")).toHaveValue("Ada");
  await chooseCountry(page, js, "US");

  await page.getByLabel("Promo code (optional)").fill("SUMMER24");
  await page.getByRole("button", { name: "Apply promo code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "promo code" })).toHaveText("The promo code SUMMER24 has expired.");
  await page.getByLabel("Promo code (optional)").fill("WELCOME10");
  await page.getByRole("button", { name: "Apply promo code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Promo code" })).toHaveText("Promo code WELCOME10 applied: 10% off your order.");

  await fillAddress(page);
  await page.getByRole("button", { name: "Continue", exact: true }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Review your order" })).toBeVisible();
  await expect(page.locator("address")).toContainText("12 Harbour Road");
  await expect(page.getByText("Shipping method: Standard")).toBeVisible();
  await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
  await axe(page);
  await placeAndPay(page, true);

  await expect(page.getByRole("heading", { level: 1, name: "Thank you for your order" })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(email);
  await axe(page);
  await page.getByRole("link", { name: "View your order and receipt" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  await expect(page.getByText("Purchased")).toBeVisible();
  await expect(page.getByRole("cell", { name: /Ebook/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: /Hardcover/ })).toBeVisible();
  await axe(page);

  const number = (await page.getByRole("heading", { level: 1 }).innerText()).replace("Order ", "");
  const mail = await mailTo(site, email);
  expect(mail).toContain(`Order number: ${number}`);

  // The cart was emptied by the payment.
  await page.goto("/shipping-payment");
  await expect(page.getByText("Your Shopping Cart is empty.")).toBeVisible();
});

test("a signed-in shopper buys a print item and an ebook and saves the address", async ({ page, axe, signIn }) => {
  await signIn(uniqueEmail("reader-buyer"));
  await addToCart(page, HARDCOVER);
  await addToCart(page, EBOOK);
  await page.goto("/shipping-payment");
  await expect(page.getByText("We will send your confirmation to")).toBeVisible();
  await fillAddress(page);
  await page.getByLabel("Save this address to my account").check();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Review your order" })).toBeVisible();
  await placeAndPay(page, false);

  await expect(page.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  await expect(page.getByText("Purchased")).toBeVisible();
  await expect(page).toHaveURL(/\/order\/ord_[A-Za-z0-9_-]{22}/);
  const number = (await page.getByRole("heading", { level: 1 }).innerText()).replace("Order ", "");

  // The ebook downloads from the order page; the order is in the purchase history.
  const download = page.getByRole("link", { name: /^Download The Patient Ledger.*\(EPUB\)$/ });
  const file = await page.request.get((await download.getAttribute("href"))!);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("application/epub+zip");
  await page.goto("/my-library/history/purchases");
  await expect(page.getByRole("link", { name: `Order ${number}` })).toBeVisible();

  await addToCart(page, EBOOK);
  await page.goto("/shipping-payment");
  await expect(page.getByRole("radio", { name: /12 Harbour Road/ })).toBeChecked();
  await axe(page);
});

test("an order page opened with printMe prints once with JS, and is a plain receipt without", async ({ page, js, signIn }) => {
  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await signIn(uniqueEmail("voucher-print"));
  await page.goto(`/the-latest?voucher_code=GIFT-LEDGER-0002`);
  await expect(page.getByRole("heading", { level: 1, name: "Redeem a voucher" })).toBeVisible();
  await page.getByRole("button", { name: "Redeem voucher" }).click();
  await expect(page.getByText("Your voucher has been redeemed.")).toBeVisible();
  await page.getByRole("link", { name: "Print this receipt" }).click();
  await expect(page).toHaveURL(/printMe=1/);
  await expect(page.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  if (js) await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
});

test("a shopper leaves the payment page, cancels the order from its page, and sees it cancelled in the purchase history", async ({
  page,
  axe,
  signIn,
}) => {
  await signIn(uniqueEmail("reader-cancel"));
  const paymentPage = await orderAndLeavePayment(page);

  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  const number = (await page.getByRole("heading", { level: 1 }).innerText()).replace("Order ", "");
  await axe(page);
  await page.getByRole("button", { name: "Cancel this order" }).click();
  await expect(page.getByRole("status")).toContainText("This order has been cancelled.");
  await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel this order" })).toHaveCount(0);

  // The payment page the shopper left open can no longer take the money.
  await page.goto(paymentPage);
  await expect(page.getByRole("status")).toHaveText("This checkout has expired: the order was cancelled. No payment was taken.");
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);

  await page.goto("/my-library/history/purchases");
  const entry = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Order ${number}` }) });
  await expect(entry).toContainText("Cancelled");
});

test("an order whose payment page was lost when the server stopped is paid from the order's own page", async ({ page, signIn, site }) => {
  await signIn(uniqueEmail("reader-stranded"));
  await orderAndLeavePayment(page);

  // What a server stopped between claiming the order for the provider and recording its page leaves.
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  await site.db
    .updateTable("store_order")
    .set({ provider_session_id: null, provider_checkout_url: null })
    .where("id", "=", orderId)
    .execute();
  await page.reload();
  await expect(page.getByRole("link", { name: "Pay for this order" })).toHaveCount(0);
  await page.getByRole("button", { name: "Pay for this order" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Purchased")).toBeVisible();
});
