import type { Page } from "@playwright/test";
import { expect, mailTo, subscribeThroughCheckout, test, uniqueEmail } from "./fixtures";
import { shoot } from "./shoot";

// Subscription and billing in My Account, with and without JavaScript: the plan bought through
// the sandbox, its card and invoice (a PDF for its owner only), cancelling at the period's end
// with or without a reason, and resuming.

test("a subscriber sees their plan, card and invoice, cancels with and without a reason, and resumes", async ({ page, site }) => {
  test.setTimeout(120_000);
  const email = await subscribeThroughCheckout(page, "billing");
  await page.goto("/my-account");
  await page.getByRole("link", { name: "Subscription and billing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscription and billing" })).toBeVisible();
  const plan = page.locator("section", { has: page.getByRole("heading", { name: "Your plan" }) });
  await expect(plan).toContainText("Digital, $12.00 a month");
  await expect(plan).toContainText(/Next renewal\s*\w+ \d{1,2}, \d{4}, \$12\.00/);
  await expect(plan).toContainText("Visa ending in 4242");

  const pdfLink = page.getByRole("link", { name: /^Download PDF of invoice MR-\d{6}$/ });
  await expect(pdfLink).toHaveCount(1);
  await expect(page.locator("section", { has: page.getByRole("heading", { name: "Invoices" }) })).toContainText("$12.00");
  const href = (await pdfLink.getAttribute("href"))!;
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["content-disposition"]).toMatch(/attachment; filename="invoice-MR-\d{6}\.pdf"/);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  expect((await page.request.get(href.replace(/[0-9a-f]{4}$/, "0000"))).status()).toBe(404);

  // Cancel with a reason: the confirmation step states the end date.
  await page.getByRole("link", { name: "Cancel subscription" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cancel your subscription" })).toBeVisible();
  const ends = (await page.locator("main p strong").first().textContent())!;
  await expect(page.getByText(`will end on ${ends}`)).toBeVisible();
  await page.getByLabel("Why are you cancelling? (optional)").selectOption({ label: "I do not have time to read it" });
  await page.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(page).toHaveURL(/\/my-account\/billing\?updated=cancelled$/);
  await expect(page.getByRole("status")).toContainText(`You keep full access until ${ends}`);
  await expect(plan).toContainText(`Cancelled: ends on ${ends}. It will not renew.`);
  expect(await mailTo(site, email, /has been cancelled/)).toContain(ends);
  expect(
    await site.db
      .selectFrom("subscription")
      .innerJoin("app_user", "app_user.id", "subscription.user_id")
      .select("cancel_reason")
      .where("app_user.email", "=", email)
      .executeTakeFirstOrThrow(),
  ).toEqual({ cancel_reason: "time" });

  // Resume: one button.
  await page.getByRole("button", { name: "Resume subscription" }).click();
  await expect(page.getByRole("status")).toContainText(`Your subscription has been resumed. It renews on ${ends}.`);
  await expect(plan).toContainText("Next renewal");

  // Cancel without a reason.
  await page.getByRole("link", { name: "Cancel subscription" }).click();
  await page.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(plan).toContainText(`Cancelled: ends on ${ends}.`);
  await page.getByRole("button", { name: "Resume subscription" }).click();
  await expect(plan).toContainText("Next renewal");
});

test("the plans' terms say that they renew until cancelled, and where to cancel", async ({ page }) => {
  await page.goto("/subscriptions");
  await expect(page.getByText("Plans renew each month or year at their price until you cancel")).toBeVisible();
  await expect(
    page.getByText(
      "$12.00 now, then $12.00 every month, plus sales tax where it applies, charged to the card you pay with, until you cancel.",
    ),
  ).toBeVisible();
  await expect(page.getByText("$450.00 now, then $450.00 every year").first()).toBeVisible();
  await expect(page.getByText(/nothing renews by itself/i)).toHaveCount(0);
});

test("a reader without a subscription is offered the plans; a guest is sent to sign in", async ({ page, signIn }) => {
  await page.goto("/my-account/billing");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fmy-account%2Fbilling$/);
  await signIn(uniqueEmail("billing-none"));
  await page.goto("/my-account/billing");
  await expect(page.getByText("You do not have a subscription.")).toBeVisible();
  await expect(page.getByRole("link", { name: "See our plans" })).toHaveAttribute("href", "/subscriptions");
  await expect(page.getByText("You have no invoices yet.")).toBeVisible();
});

test("subscribing shows where the reader is: the steps, and the step in the page's heading", async ({ page, signIn, axe }) => {
  await signIn(uniqueEmail("billing-steps"));
  await page.goto("/subscriptions/checkout?plan=digital");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Step 2 of 4: Subscribe: Digital");
  const steps = page.getByRole("list", { name: "Subscription steps" });
  await expect(steps.locator('[aria-current="step"]')).toHaveText("2Billing address");
  await expect(steps.getByText("Your account (done)")).toBeAttached();
  await axe(page);
  await page.getByLabel("Country").selectOption({ label: "United States" });
  await page.getByLabel("State or province (United States and Canada)").selectOption({ label: "New York" });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Step 3 of 4: Subscribe: Digital");
  await expect(steps.locator('[aria-current="step"]')).toHaveText("3Payment");
  await axe(page);
});

/** A gated article for checking what a reader meets: the first in the latest stream. */
async function anyArticle(page: Page): Promise<string> {
  await page.goto("/the-latest");
  return (await page.locator("main ol article h3 a").first().getAttribute("href"))!;
}
const meterBanner = (page: Page) =>
  page.getByRole("status").filter({ hasText: /free articles? left this month|last free article this month/ });

test("the sandbox clock moved 31 days renews the plan: a second invoice and a receipt", async ({ page, site }) => {
  test.setTimeout(120_000);
  const email = await subscribeThroughCheckout(page, "renewal");
  await page.goto("/my-account/billing");
  const plan = page.locator("section", { has: page.getByRole("heading", { name: "Your plan" }) });
  const before = (await plan.locator("dd").nth(1).textContent())!;
  try {
    expect(await site.advanceClock("31d")).toMatch(/renewed [1-9]\d* subscription/);
    await page.reload();
    await expect(page.getByRole("link", { name: /^Download PDF of invoice MR-\d{6}$/ })).toHaveCount(2);
    await expect(plan.locator("dd").nth(1)).not.toHaveText(before);
    expect(await mailTo(site, email, /has renewed/)).toMatch(/Subject: Your Meridian Review receipt MR-\d{6}/);
  } finally {
    await site.resetClock();
  }
});

test("a declined renewal: the mail, access through grace, a new card that pays at once; unpaid, the plan ends and the meter is back", async ({
  page,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const article = await anyArticle(page);
  const email = await subscribeThroughCheckout(page, "dunning", "4000 0000 0000 0341");
  const plan = page.locator("section", { has: page.getByRole("heading", { name: "Your plan" }) });
  try {
    expect(await site.advanceClock("31d")).toMatch(/[1-9]\d* declined/);
    expect(await mailTo(site, email, /did not go through/)).toContain("/my-account/billing/card");
    await page.goto("/my-account/billing");
    await expect(plan).toContainText("Payment overdue: your renewal payment of $12.00 was declined.");
    await expect(plan).toContainText(/We will try your card again on \w+ \d{1,2}, \d{4}\. You keep full access until/);
    await shoot(page, testInfo.project.name, "billing-past-due", "/my-account/billing");
    await shoot(page, testInfo.project.name, "billing-card-overdue", "/my-account/billing/card");
    // Access stays during grace: no meter.
    await page.goto(article);
    await expect(page.locator("#article-body")).toBeVisible();
    await expect(meterBanner(page)).toHaveCount(0);

    // A new card through the provider's page pays the overdue renewal at once.
    await page.goto("/my-account/billing");
    await page.getByRole("link", { name: "Update your card" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Change your card" })).toBeVisible();
    await expect(page.getByRole("alert")).toContainText("Your renewal payment of $12.00 is overdue.");
    await page.getByRole("button", { name: "Continue to the secure page" }).click();
    await expect(page.getByText("Nothing is charged now")).toBeVisible();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Save card" }).click();
    await expect(page).toHaveURL(/\/my-account\/billing\?updated=card-paid$/);
    await expect(page.getByRole("status")).toContainText("your overdue payment went through: your subscription is active again");
    await expect(plan).toContainText("Visa ending in 4242");
    await expect(plan).toContainText("Next renewal");
    await expect(page.getByRole("link", { name: /^Download PDF of invoice/ })).toHaveCount(2);
  } finally {
    await site.resetClock();
  }

  // Another subscriber never pays: after grace the plan ends, with its mail, and the meter is back.
  await page.context().clearCookies();
  const lapsed = await subscribeThroughCheckout(page, "lapsed", "4000 0000 0000 0341");
  try {
    await site.advanceClock("31d");
    // A week on: the retries of days 1, 3 and 5 are declined in turn, and grace is over.
    expect(await site.advanceClock("7d")).toMatch(/[1-9]\d* ended/);
    expect(await mailTo(site, lapsed, /has ended/)).toContain("we could not take its renewal payment");
    await page.goto("/my-account/billing");
    await expect(page.getByText("You do not have a subscription.")).toBeVisible();
    await page.goto(article);
    await expect(meterBanner(page)).toBeVisible();
  } finally {
    await site.resetClock();
  }
});

test("an upgrade is charged as quoted and starts at once; a downgrade waits for the renewal and can be taken back", async ({
  page,
  site,
}) => {
  test.setTimeout(120_000);
  const email = await subscribeThroughCheckout(page, "upgrade");
  await page.goto("/my-account/billing");
  await page.getByRole("link", { name: "Change plan" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Change plan" })).toBeVisible();
  await page.getByRole("link", { name: "Upgrade to Premium" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Upgrade to Premium" })).toBeVisible();
  await expect(page.getByText("Less the unused part of Digital")).toBeVisible();
  const button = page.getByRole("button", { name: /^Upgrade and pay \$\d+\.\d{2}$/ });
  const shown = /\$(\d+\.\d{2})/.exec((await button.textContent())!)![1]!;
  await button.click();
  await expect(page).toHaveURL(/\/my-account\/billing\?updated=upgraded$/);
  await expect(page.getByRole("status")).toContainText("Your plan is now Premium.");
  const plan = page.locator("section", { has: page.getByRole("heading", { name: "Your plan" }) });
  await expect(plan).toContainText("Premium, $20.00 a month");
  await expect(page.getByRole("link", { name: /^Download PDF of invoice/ })).toHaveCount(2);
  await expect(page.locator("section", { has: page.getByRole("heading", { name: "Invoices" }) })).toContainText(`$${shown}`);
  expect(await mailTo(site, email, /your subscription is now Premium/)).toContain(`$${shown}`);

  await page.getByRole("link", { name: "Change plan" }).click();
  await page.getByRole("link", { name: "Change to Digital at renewal" }).click();
  await expect(page.getByText("Nothing is charged today.")).toBeVisible();
  await page.getByRole("button", { name: "Confirm the change" }).click();
  await expect(page.getByRole("status")).toContainText("Your plan changes to Digital when it renews on");
  await expect(plan).toContainText("changes to Digital, $12.00 a month");
  await page.getByRole("button", { name: "Keep Premium" }).click();
  await expect(page.getByRole("status")).toContainText("You keep Premium: it renews as before.");
  await expect(plan).not.toContainText("changes to Digital");
});

test("a subscriber changes the billing address: the next renewal is shown with the tax it calls for", async ({ page, axe }) => {
  test.setTimeout(120_000);
  await subscribeThroughCheckout(page, "address");
  await page.goto("/my-account/billing");
  const plan = page.locator("section", { has: page.getByRole("heading", { name: "Your plan" }) });
  await expect(plan).toContainText("United Kingdom");
  await expect(plan).toContainText(/Next renewal\s*\w+ \d{1,2}, \d{4}, \$12\.00(?! \()/);
  const address = page.locator("section", { has: page.getByRole("heading", { name: "Billing address" }) });
  await address.getByText("Change billing address").click();
  // A state is asked for in the US: without one, the form says so.
  await address.getByLabel("Country").selectOption({ label: "United States" });
  await address.getByRole("button", { name: "Save billing address" }).click();
  await expect(address.getByText("Please choose your state of the United States.")).toBeVisible();
  await axe(page);
  await address.getByLabel("State or province (United States and Canada)").selectOption({ label: "New York" });
  await address.getByRole("button", { name: "Save billing address" }).click();
  await expect(page).toHaveURL(/\/my-account\/billing\?updated=address$/);
  await expect(page.getByRole("status")).toContainText("Your billing address is now New York, United States.");
  await expect(plan).toContainText("$12.48 ($12.00 + Tax (NY 4%) $0.48)");
});
