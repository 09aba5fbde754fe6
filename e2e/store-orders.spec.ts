import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { expect, subscribeThroughCheckout, test, uniqueEmail } from "./fixtures";

// Purchase history and order downloads, with and without JavaScript. Subscriptions are bought
// through the sandbox checkout; store orders are written into the server's database the way the
// checkout leaves them (the checkout pages are another part of the store).

const HISTORY = "/my-library/history/purchases";
const DAY = 24 * 60 * 60 * 1000;

test("a reader who has bought nothing sees the purchase history's welcome", async ({ page, axe, signIn }) => {
  await signIn(uniqueEmail("nohistory"));
  await page.goto(HISTORY);
  await expect(page.getByRole("heading", { level: 2, name: "Purchase history" })).toBeVisible();
  await expect(page.getByText("Welcome to your purchase history. The orders you place in our store will be listed here.")).toBeVisible();
  await axe(page);
});

test("a bought subscription is listed as a #S entry with its account number", async ({ page }) => {
  await subscribeThroughCheckout(page, "subhistory");
  await page.goto(HISTORY);
  const entry = page.locator("main li", { has: page.getByRole("heading", { level: 3, name: "Digital subscription #S1" }) });
  await expect(entry).toContainText("Purchased");
  await expect(entry).toContainText("$12.00");
  await expect(entry).toContainText(/Account number chk_[\w-]{22}/);
  await entry.getByRole("link", { name: "Digital subscription #S1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for subscribing" })).toBeVisible();
});

test("an order is listed with five of its items and downloads for its buyer only", async ({ page, browser, axe, site, signIn }) => {
  const email = uniqueEmail("orders");
  const { userId } = await signIn(email, { from: HISTORY });
  const db = site.db;
  const pick = await availabilities(db);
  const items = [pick.kindle, pick.hardcover, pick.epub, pick.pdfBook, pick.spreadsheet, pick.bundle, pick.html];
  const order = await insertOrder(db, {
    userId,
    email,
    status: "paid",
    createdAt: new Date(Date.now() - 200 * DAY).toISOString(),
    lines: [...items.map((a) => ({ availabilityId: a.id })), { availabilityId: pick.caseStudy.id }],
  });
  const cancelled = await insertOrder(db, {
    userId,
    email,
    status: "cancelled",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.hardcover.id }],
  });

  await page.goto(HISTORY);
  const entries = page.locator("main ol > li");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0).getByRole("heading", { level: 3 })).toHaveText(`Order ${cancelled.number}`);
  await expect(entries.nth(0)).toContainText("Cancelled");
  const entry = entries.nth(1);
  await expect(entry.getByRole("link", { name: `Order ${order.number}` })).toHaveAttribute("href", `/order/${order.id}`);
  await expect(entry).toContainText("Purchased");
  const lines = entry.getByRole("list", { name: `Items in Order ${order.number}` }).getByRole("listitem");
  await expect(lines).toHaveCount(6);
  await expect(lines.first()).toContainText(pick.kindle.title);
  await expect(lines.last()).toHaveText("and 3 more");
  await axe(page);

  // The buyer's ebook, as a file; someone else gets nothing.
  const download = await page.request.get(`/download/order/${order.id}/1`);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/epub+zip");
  const other = await browser.newContext();
  expect((await other.request.get(`/download/order/${order.id}/1`)).status()).toBe(404);
  await other.close();

  // More than six months on, the case study's access has ended. The page is a document of its
  // own with no scripts, so it is opened in a plain tab of the same browser (nothing hydrates).
  const ended = await page.context().newPage();
  const response = await ended.goto(`/download/order/${order.id}/8`);
  expect(response?.status()).toBe(410);
  await expect(ended.getByRole("heading", { level: 1, name: "Your access to this case study has ended" })).toBeVisible();
  await expect(ended.getByRole("link", { name: "its order page" })).toHaveAttribute("href", `/order/${order.id}`);
  await axe(ended);
});
