import { signIn as checkPassword } from "~/server/accounts/sign-in";
import { meterPeriod } from "~/server/paywall/meter";
import { userKey } from "~/server/readers/keys";
import { createReader, expect, firstArticlePath, PASSWORD, test, uniqueEmail } from "./fixtures";
import { enrolledStaff } from "./staff";

// Issue 39's "Done when" for customer service, without JavaScript, in the browser: a service
// agent finds a locked-out reader by e-mail, unlocks them with a reason and grants them a
// complimentary subscription; the reader then signs in and reads a subscriber's article in full
// past the wall their meter had reached; an admin finds both actions in the audit log.

test("a service agent finds a locked-out reader, unlocks them and comps a subscription; the reader signs in and reads past the wall", async ({
  page,
  browser,
  site,
  js,
}) => {
  const email = uniqueEmail("service-locked");
  const userId = await createReader(site, email, { firstName: "Lena", lastName: "Quist" });
  const readerContext = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
  const readerPage = await readerContext.newPage();
  const article = await firstArticlePath(readerPage);
  // Five wrong passwords lock the address; the month's free articles are all read (others than this one).
  for (let i = 0; i < 5; i++) await checkPassword(site.db, email, "Not-the-password-1", { maxFailures: 5, lockoutSeconds: 900 });
  const articles = await site.db
    .selectFrom("article")
    .select("id")
    .where("slug", "!=", article.split("/").at(-1)!)
    .orderBy("id")
    .limit(8)
    .execute();
  const now = new Date();
  await site.db
    .insertInto("meter_read")
    .values(
      articles.map((a) => ({
        meter_key: userKey(userId),
        period: meterPeriod(now),
        meter: "article" as const,
        article_id: a.id,
        read_at: now.toISOString(),
        client_address: null,
      })),
    )
    .execute();

  const tryToSignIn = async () => {
    await readerPage.goto("/sign-in");
    await readerPage.getByLabel("Email address").fill(email);
    await readerPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await readerPage.getByRole("button", { name: "Sign In" }).click();
  };
  await tryToSignIn();
  await expect(readerPage.getByText(/Your account is blocked, please wait \d+ minutes to unlock/).first()).toBeVisible();

  const agent = await enrolledStaff(page, site, "service-agent", ["service"], { firstName: "Sam", lastName: "Agent" });
  await page.goto("/desk");
  await page.getByRole("navigation", { name: "Desk", exact: true }).getByRole("link", { name: "Readers" }).click();
  await page.getByRole("searchbox", { name: "Find readers" }).fill(email.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status")).toContainText("1 reader match");
  await page.getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Lena Quist" })).toBeVisible();
  await expect(page.getByText(/Locked until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\./)).toBeVisible();

  // No reason: the form says so and nothing changes.
  const unlock = page.locator("form#unlock");
  await unlock.getByRole("button", { name: "Unlock the account" }).click();
  await expect(page.getByRole("alert").getByRole("link", { name: "Give a reason: it goes into the audit log." })).toBeVisible();
  await page.locator("form#unlock").getByLabel("Reason").fill("Caller confirmed their postcode");
  await page.locator("form#unlock").getByRole("button", { name: "Unlock the account" }).click();
  await expect(page.getByRole("status").first()).toHaveText("Unlocked: they can sign in again. They were mailed.");

  // The reader signs in now, and meets the wall: their free articles are read.
  await tryToSignIn();
  await readerPage.waitForURL((url) => url.pathname === "/");
  await readerPage.goto(article);
  await expect(readerPage.locator("#paywall")).toBeVisible();

  const ends = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const comp = page.locator("form#comp");
  await comp.getByLabel("Tier").selectOption({ label: "Best (Premium)" });
  await comp.getByLabel("Ends on (YYYY-MM-DD)").fill(ends);
  await comp.getByLabel("Reason").fill("Apology for the lockout");
  await comp.getByRole("button", { name: "Grant a complimentary subscription" }).click();
  await expect(page.getByRole("status").first()).toHaveText(
    "Complimentary subscription granted: it ends by itself on its day. They were mailed.",
  );
  await expect(page.getByRole("table", { name: "Subscriptions" }).getByRole("cell", { name: "Complimentary" })).toBeVisible();

  // At once, the same article opens in full: no wall, the gated part shown.
  await readerPage.goto(article);
  await expect(readerPage.locator("#paywall")).toHaveCount(0);
  await expect(readerPage.locator("#article-body .paywalled-content")).not.toBeEmpty();
  await readerContext.close();

  const adminContext = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
  const admin = await adminContext.newPage();
  await enrolledStaff(admin, site, "service-admin", ["admin"]);
  await admin.goto("/desk/audit");
  const ours = admin
    .locator("main table tbody tr")
    .filter({ has: admin.locator('td[data-label="About"]', { hasText: `reader:${email}` }) });
  await expect(ours.locator('td[data-label="What"]')).toHaveText(["Granted a complimentary subscription", "Unlocked a reader's account"]);
  await expect(ours.locator('td[data-label="Who"]')).toHaveText([agent.email, agent.email]);
  await expect(ours.first().locator('td[data-label="After"]')).toContainText("Apology for the lockout");
  await adminContext.close();
});
