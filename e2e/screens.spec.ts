import type { Page } from "@playwright/test";
import { COMMAND_LINE } from "~/server/desk/audit";
import { chooseHomeStories, homeCuration } from "~/server/desk/curation";
import { totpCode } from "~/server/desk/totp";
import { newStaff, secretOnPage, signInThroughPage } from "./staff";
import { addToCart, expect, fillAddress, subscribeThroughCheckout, test, uniqueEmail } from "./fixtures";
import { SCREENSHOT_WIDTHS, screenPath, shoot, WIDTHS } from "./shoot";

// One screenshot of every page type at a phone's width and a laptop's, for a person to look at
// (e2e/shoot.ts). Each page must answer, have its heading, and be no wider than the screen at 320,
// 390, 768 and 1280 px. A state another spec sets up (a declined renewal) is shot there.
async function firstLink(page: Page, from: string, pattern: RegExp): Promise<string> {
  await page.goto(from);
  const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  const href = hrefs.find((h) => pattern.test(h));
  if (!href) throw new Error(`no link matching ${pattern} on ${from}`);
  return href;
}

// A page's address, or where to find it: the first link on a page that matches.
type Address = string | { from: string; link: RegExp };

// In groups, so the workers share them out.
const GUEST_PAGES: Record<string, [string, Address][]> = {
  "home and streams": [
    ["home", "/"],
    ["article", { from: "/the-latest", link: /^\/\d{4}\/\d{2}\// }],
    ["stream", "/the-latest"],
    ["topics", "/topics"],
    ["topic", { from: "/topics", link: /^\/topic\// }],
    ["search", "/search?q=strategy"],
  ],
  "magazine, video and podcasts": [
    ["magazine", "/magazine"],
    ["magazine-issue", { from: "/magazine", link: /^\/archive-toc\// }],
    ["video-index", "/video"],
    ["video", { from: "/video", link: /^\/video\/\d+/ }],
    ["podcasts", "/podcasts"],
    ["podcast", { from: "/podcasts", link: /^\/podcasts\/[^/?]+$/ }],
    ["podcast-episode", { from: "/podcasts/the-long-way-back", link: /^\/podcasts\/[^/?]+\/\d+-/ }],
  ],
  store: [
    ["store", "/store"],
    ["product", { from: "/store", link: /^\/product\// }],
    ["product-better-together", "/product/the-patient-ledger/1001"],
    ["shopping-cart", "/shopping-cart"],
  ],
  "subscribing, signing in and reading lists": [
    ["subscriptions", "/subscriptions"],
    ["newsletters", "/email-newsletters"],
    ["sign-in", "/sign-in"],
    ["register", "/register"],
    ["reading-lists", "/reading-lists"],
    ["reading-list", "/reading-lists/leading-through-reorganization"],
  ],
};

for (const [group, pages] of Object.entries(GUEST_PAGES)) {
  test(`every page type, as a guest (${group}), fits the screen from 320 to 1280 px`, async ({ page }, testInfo) => {
    for (const [name, address] of pages) {
      const at = typeof address === "string" ? address : await firstLink(page, address.from, address.link);
      await shoot(page, testInfo.project.name, name, at);
    }
  });
}

test("a subscriber's own pages fit the screen from 320 to 1280 px", async ({ page, signIn }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(uniqueEmail("screens"), { plan: "digital" });
  for (const [name, address] of [
    ["my-library", "/my-library"],
    ["my-account", "/my-account"],
  ] as const) {
    await shoot(page, testInfo.project.name, name, address);
  }
});

test("Subscription and billing, with a plan bought through the sandbox, fits the screen from 320 to 1280 px", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await subscribeThroughCheckout(page, "screens-billing");
  await shoot(page, testInfo.project.name, "billing", "/my-account/billing");
  await shoot(page, testInfo.project.name, "billing-cancel", "/my-account/billing/cancel");
  await shoot(page, testInfo.project.name, "billing-card", "/my-account/billing/card");
  await shoot(page, testInfo.project.name, "billing-plans", "/my-account/billing/plan");
  await shoot(page, testInfo.project.name, "billing-upgrade", "/my-account/billing/plan?to=executive");
});

test("the subscription checkout's billing address and review steps fit the screen from 320 to 1280 px", async ({
  page,
  signIn,
}, testInfo) => {
  const project = testInfo.project.name;
  await signIn(uniqueEmail("screens-subscribe"));
  await shoot(page, project, "subscription-checkout-address", "/subscriptions/checkout?plan=digital");
  // The review step, billed where sales tax is due: the price with its tax, to the cent.
  await shoot(page, project, "subscription-checkout-review", "/subscriptions/checkout?plan=digital&countryCode=US&region=NY");
  await expect(page.getByText("Tax (NY 4%)").first()).toBeVisible();
});

test("every checkout step, signed in with a print item and an ebook in the cart, fits the screen from 320 to 1280 px", async ({
  page,
  signIn,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  await signIn(uniqueEmail("screens-checkout"));
  for (const product of ["/product/the-patient-ledger/1001", "/product/the-patient-ledger/1002"]) await addToCart(page, product);
  await shoot(page, project, "shopping-cart-full", "/shopping-cart");
  await shoot(page, project, "shipping-payment", "/shipping-payment");

  await fillAddress(page);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Review your order" })).toBeVisible();
  await shoot(page, project, "review-order", "/review-order");

  await page.getByRole("button", { name: /^Place order: \$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  await shoot(page, project, "sandbox-checkout", new URL(page.url()).pathname);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  await shoot(page, project, "order", `/order/${orderId}`);

  // A guest lands on the thanks page; the signed-in buyer can open it with the order's key.
  const { access_token } = await site.db
    .selectFrom("store_order")
    .select("access_token")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await shoot(page, project, "registration-complete", `/registration-complete?order=${orderId}&key=${access_token}`);
});

test("the reading-list dialog over an article fits the screen from 320 to 1280 px", async ({ page, js }, testInfo) => {
  const article = await firstLink(page, "/reading-lists/leading-through-reorganization", /^\/\d{4}\/\d{2}\//);
  await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
  await page.goto(article.split("?")[0]!);
  await page.getByRole("complementary", { name: "Related" }).getByRole("link", { name: "Leading Through Reorganization" }).click();
  // Without JS the link leads to the list's page, which the test above covers.
  const dialog = page.getByRole("dialog", { name: "Leading Through Reorganization" });
  const firstItem = js ? dialog.locator("ol > li h3 a").first() : page.locator("main ol > li h2 a").first();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(firstItem, `${width} px`).toBeVisible();
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector("dialog")?.scrollWidth ?? 0]);
    for (const w of widths) expect(w, `${width} px`).toBeLessThanOrEqual(width);
    if (SCREENSHOT_WIDTHS.includes(width)) {
      await page.screenshot({
        path: screenPath(testInfo.project.name, "reading-list-dialog", width),
        animations: "disabled",
      });
    }
  }
});

test("the desk's pages, for an admin, fit the screen from 320 to 1280 px", async ({ page, site }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const admin = await newStaff(site, "screens-desk", ["admin"]);
  const colleague = await newStaff(site, "screens-desk-editor", ["editor", "store"]);
  await signInThroughPage(page, admin.email);
  await shoot(page, project, "desk-enrol", admin.link);
  const secret = await secretOnPage(page);
  await page.getByLabel("Code from your app").fill(totpCode(secret, new Date()));
  await page.getByRole("button", { name: "Set up and enter the desk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your second factor" })).toBeVisible();
  await page.screenshot({ path: screenPath(project, "desk-recovery-codes", 1280), fullPage: true, animations: "disabled" });

  const colleagueId = await site.db.selectFrom("app_user").select("id").where("email", "=", colleague.email).executeTakeFirstOrThrow();
  await shoot(page, project, "desk", "/desk");
  await shoot(page, project, "desk-security", "/desk/security");
  await shoot(page, project, "desk-staff", "/desk/staff");
  await shoot(page, project, "desk-staff-member", `/desk/staff/${colleagueId.id}`);
  await shoot(page, project, "desk-audit", "/desk/audit");

  // Curation: a lead and a pinned story chosen through the page's own buttons, then given back.
  const older = await site.db.selectFrom("article").select(["slug", "title"]).orderBy("published").limit(2).execute();
  try {
    await page.goto("/desk/home");
    for (const [index, article] of older.entries()) {
      await page.getByLabel(index === 0 ? "Article for the lead story" : "Article to pin").fill(article.slug);
      await page.getByRole("button", { name: index === 0 ? "Make it the lead" : "Pin it" }).click();
      await expect(page.getByRole("status")).toContainText("Saved.");
    }
    await expect(page.locator("main ol li").first()).toContainText(older[0]!.title);
    await shoot(page, project, "desk-home", "/desk/home");
  } finally {
    const { version } = await homeCuration(site.db);
    await chooseHomeStories(site.db, COMMAND_LINE, version, [], new Date());
  }
  await shoot(page, project, "desk-reading-lists", "/desk/reading-lists");
  await shoot(page, project, "desk-reading-list-new", "/desk/reading-lists/new");
  await shoot(page, project, "desk-reading-list", "/desk/reading-lists/1");
  await page.getByRole("button", { name: "Leave the desk" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await shoot(page, project, "desk-verify", "/desk/verify");
});
