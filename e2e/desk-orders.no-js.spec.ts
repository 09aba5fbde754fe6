import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { markOrderPaid } from "~/server/store/order-payment";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { createReader, expect, mailTo, test, uniqueEmail } from "./fixtures";
import type { Site } from "./site";
import { enrolledStaff, signInThroughPage } from "./staff";

// Issue 39's "Done when" for the store, without JavaScript, in the browser: a store member ships
// a paid order with a carrier and a tracking number, and the buyer is mailed the tracking link
// and sees the order dispatched, with the link, in their purchase history and on the order's
// page; the store member refunds one line of another order: the buyer is mailed the refund
// receipt with its credit note, the refunded line's download closes, and the sandbox provider
// has refunded exactly that line.

/** A paid order of the buyer's, of a hardcover and an ebook, paid at the sandbox as the checkout leaves it. */
async function paidOrder(site: Site, userId: string, email: string) {
  const pick = await availabilities(site.db);
  const order = await insertOrder(site.db, {
    userId,
    email,
    status: "pending_payment",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }],
  });
  const sandbox = createSandboxProvider(site.db, { siteUrl: site.url, webhookSecret: "unused" });
  const { total_cents } = await site.db
    .selectFrom("store_order")
    .select("total_cents")
    .where("id", "=", order.id)
    .executeTakeFirstOrThrow();
  const session = await sandbox.createCheckout({
    reference: order.id,
    description: order.number,
    amountCents: total_cents,
    currency: "usd",
    customerEmail: email,
    successUrl: `${site.url}/ok`,
    cancelUrl: `${site.url}/no`,
  });
  await site.db
    .updateTable("store_order")
    .set({ provider: "sandbox", provider_session_id: session.id })
    .where("id", "=", order.id)
    .execute();
  await sandbox.pay(session.id, SANDBOX_CARDS.succeeds);
  await markOrderPaid(site.db, order.id);
  const lines = await site.db
    .selectFrom("store_order_line")
    .select(["position", "title", "format", "line_total_cents"])
    .where("order_id", "=", order.id)
    .orderBy("position")
    .execute();
  return { ...order, sessionId: session.id, lines };
}

const TRACKING = "1Z999AA10123456784";
const TRACKING_URL = `https://www.ups.com/track?tracknum=${TRACKING}`;

test("a store member ships one order with tracking and refunds a line of another; the buyer is told and sees both", async ({
  page,
  browser,
  site,
  js,
  axe,
}) => {
  const email = uniqueEmail("store-buyer");
  const userId = await createReader(site, email, { firstName: "Ruth", lastName: "Buyer" });
  const shipped = await paidOrder(site, userId, email);
  const refunded = await paidOrder(site, userId, email);

  await enrolledStaff(page, site, "store-clerk", ["store"], { firstName: "Stella", lastName: "Store" });
  await page.goto("/desk");
  await page.getByRole("navigation", { name: "Desk", exact: true }).getByRole("link", { name: "Orders" }).click();
  await page.getByRole("link", { name: shipped.number }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Order ${shipped.number}` })).toBeVisible();

  // Dispatch the hardcover (the ebook was fulfilled at payment).
  const dispatch = page.getByRole("form", { name: "Dispatch with tracking" });
  await expect(dispatch.getByRole("checkbox")).toHaveCount(1);
  await dispatch.getByLabel("Carrier", { exact: true }).selectOption({ label: "UPS" });
  await dispatch.getByLabel("Tracking number", { exact: true }).fill(TRACKING);
  await dispatch.getByRole("button", { name: "Dispatch and mail the buyer" }).click();
  await expect(page.getByRole("status").first()).toHaveText("Dispatched. The buyer has been mailed the tracking details.");
  await expect(page.getByRole("link", { name: TRACKING })).toHaveAttribute("href", TRACKING_URL);
  const dispatchMail = await mailTo(site, email, new RegExp(`order ${shipped.number} has been dispatched`));
  expect(dispatchMail).toContain(`Track your parcel: ${TRACKING_URL}`);

  // Refund the other order's ebook only.
  await page.goto(`/desk/orders/${refunded.number}`);
  const ebook = refunded.lines[1]!;
  const refund = page.getByRole("form", { name: "Refund lines" });
  await refund.getByLabel(`${ebook.title} (${ebook.format}), up to 1`).fill("1");
  await refund.getByLabel("Reason", { exact: true }).fill("Bought the ebook twice");
  await refund.getByRole("button", { name: "Refund and mail a credit note" }).click();
  await expect(page.getByRole("status").first()).toHaveText("Refunded. The buyer has been mailed a credit note.");
  const receipt = await mailTo(site, email, new RegExp(`refund for order ${refunded.number}`));
  expect(receipt).toMatch(/Credit note: CN-\d{6}/);
  expect(receipt).toMatch(/filename="?credit-note-CN-\d{6}\.pdf/);
  const atSandbox = await site.db
    .selectFrom("sandbox_refund")
    .select("amount_cents")
    .where("payment_id", "=", refunded.sessionId)
    .execute();
  expect(atSandbox.map((r) => r.amount_cents)).toEqual([ebook.line_total_cents]);

  // The buyer, in a browser of their own.
  const buyerContext = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
  const buyer = await buyerContext.newPage();
  await signInThroughPage(buyer, email);
  await buyer.goto("/my-library/history/purchases");
  const shippedEntry = buyer.locator("main li", { has: buyer.getByRole("heading", { level: 3, name: `Order ${shipped.number}` }) });
  await expect(shippedEntry).toContainText("Dispatched");
  await expect(shippedEntry.getByRole("list", { name: `Shipments of Order ${shipped.number}` })).toContainText("with UPS, tracking number");
  await expect(shippedEntry.getByRole("link", { name: TRACKING })).toHaveAttribute("href", TRACKING_URL);
  const refundedEntry = buyer.locator("main li", { has: buyer.getByRole("heading", { level: 3, name: `Order ${refunded.number}` }) });
  await expect(refundedEntry).toContainText(`Partly refunded: $${(ebook.line_total_cents / 100).toFixed(2)} of`);
  await axe(buyer);

  await shippedEntry.getByRole("link", { name: `Order ${shipped.number}` }).click();
  await expect(buyer.getByRole("heading", { level: 1, name: `Order ${shipped.number}` })).toBeVisible();
  await expect(buyer.getByRole("definition").filter({ hasText: "Fulfilled" })).toBeVisible();
  await expect(buyer.getByRole("region", { name: "Shipments" }).getByRole("link", { name: TRACKING })).toHaveAttribute(
    "href",
    TRACKING_URL,
  );

  await buyer.goto(`/order/${refunded.id}`);
  // The download names the file's format (EPUB), not the line's.
  const title = ebook.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(buyer.getByRole("region", { name: "Downloads" })).toContainText(new RegExp(`${title} \\(\\w+\\): refunded on`));
  expect((await buyer.request.get(`/download/order/${refunded.id}/2`)).status()).toBe(410);
  await buyerContext.close();
});
