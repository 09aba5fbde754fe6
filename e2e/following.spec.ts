import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { databaseEnv } from "~/tests/helpers/test-db";
import { accountMenuItem, expect, test, uniqueEmail } from "./fixtures";
import type { Site } from "./site";

// Following topics and the following stream, the guests' sign-in prompt, and newsletters,
// with and without JavaScript.

const PROMPT = "To access this feature, please SIGN IN or REGISTER";

test("a reader follows topics, filters the following stream, and stops following one after confirming", async ({
  page,
  js,
  axe,
  signIn,
}) => {
  await signIn(uniqueEmail("follower"));
  await page.goto("/my-library/topics");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to your topics" })).toBeVisible();
  await axe(page);

  if (js) {
    // Held back a moment, the fetcher's post shows the new state at once on a disabled button.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/follow.data*", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/topic/subject/strategy");
    await page.getByRole("button", { name: "Follow this" }).click();
    await expect(page.getByRole("button", { name: "Following" })).toBeDisabled();
    release();
    await expect(page.getByRole("button", { name: "Following" })).toBeEnabled();
    await page.unroute("**/follow.data*");
    expect(page.url()).toMatch(/\/topic\/subject\/strategy$/);
  }
  for (const slug of js ? ["innovation"] : ["strategy", "innovation"]) {
    await page.goto(`/topic/subject/${slug}`);
    const stored = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/follow") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Follow this" }).click();
    await stored;
    await expect(page.getByRole("button", { name: "Following" })).toBeVisible();
  }
  await page.reload();
  await expect(page.getByRole("button", { name: "Following" })).toBeVisible();
  await axe(page);

  await (await accountMenuItem(page, js, "link", /^Following/)).click();
  await expect(page).toHaveURL(/\/my-library\/topics$/);
  await expect(page.getByRole("heading", { level: 1, name: "Topics you follow" })).toBeVisible();
  const menu = page.getByRole("navigation", { name: "Your topics" });
  await expect(menu.getByRole("link", { name: "Everything" })).toHaveAttribute("aria-current", "page");
  await expect(page.locator("main ol article").first()).toBeVisible();
  await axe(page);

  await menu.getByRole("link", { name: "Innovation", exact: true }).click();
  await expect(page).toHaveURL(/\?filter=Innovation$/);
  await expect(menu.getByRole("link", { name: "Innovation", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { level: 2, name: "Innovation" })).toBeVisible();

  await menu.getByRole("link", { name: "Delete Innovation" }).click();
  const question = page.getByText('Stop following "Innovation"?');
  await expect(question).toBeVisible();
  await axe(page);
  await page.getByRole("link", { name: "No", exact: true }).click();
  await expect(question).toHaveCount(0);
  await expect(page).toHaveURL(/\?filter=Innovation$/);

  await menu.getByRole("link", { name: "Delete Innovation" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/my-library\/topics$/);
  await expect(menu.getByRole("link", { name: "Innovation", exact: true })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Everything" })).toHaveAttribute("aria-current", "page");
  await expect(menu.getByRole("link", { name: "Strategy", exact: true })).toBeVisible();

  await page.goto("/topic/subject/strategy");
  // With JS the button shows the new state while the post is under way: leave only once it is stored.
  const stored = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/follow") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Following" }).click();
  await stored;
  await expect(page.getByRole("button", { name: "Follow this" })).toBeVisible();
  await page.goto("/my-library/topics");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to your topics" })).toBeVisible();
});

test("a guest who tries to follow is asked to sign in or register", async ({ page, js, axe }) => {
  await page.goto("/topic/subject/strategy");
  await page.getByRole("button", { name: "Follow this" }).click();
  await expect(page.getByText(PROMPT)).toBeVisible();
  if (!js) await expect(page).toHaveURL(/\/follow\?redirectTo=%2Ftopic%2Fsubject%2Fstrategy$/);
  await expect(page.getByRole("main").getByRole("link", { name: "SIGN IN" })).toHaveAttribute(
    "href",
    "/sign-in?redirectTo=%2Ftopic%2Fsubject%2Fstrategy",
  );
  await expect(page.getByRole("main").getByRole("link", { name: "REGISTER" })).toHaveAttribute(
    "href",
    "/register?redirectTo=%2Ftopic%2Fsubject%2Fstrategy",
  );
  await axe(page);

  await page.goto("/my-library/topics");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fmy-library%2Ftopics$/);
});

test("a reader subscribes to newsletters and campaigns, unsubscribes from one, then from all", async ({ page, axe, signIn }) => {
  await signIn(uniqueEmail("newsletters"));
  await page.goto("/email-newsletters");
  await expect(page.getByRole("heading", { level: 1, name: "Email Newsletters" })).toBeVisible();
  const status = page.getByRole("main").getByRole("status").first();
  await expect(status).toHaveText("You are not subscribed to any newsletters.");
  await expect(page.getByRole("button", { name: "Unsubscribe from all" })).toBeDisabled();
  await axe(page);

  for (const name of ["The Daily Brief", "The Chart Room", "Event Invitations"]) {
    await page.getByRole("button", { name: `Subscribe to ${name}` }).click();
    await expect(page.getByRole("button", { name: `Unsubscribe from ${name}` })).toBeVisible();
  }
  await expect(status).toHaveText("You are subscribed to 2 newsletters.");
  await expect(page.getByText("This newsletter is for subscribers. Subscribe to receive it.")).toBeVisible();
  await axe(page);

  await page.getByRole("button", { name: "Unsubscribe from The Chart Room" }).click();
  await expect(page.getByRole("button", { name: "Subscribe to The Chart Room" })).toBeVisible();
  await expect(status).toHaveText("You are subscribed to 1 newsletter.");

  await page.getByRole("button", { name: "Subscribe to Leading People" }).click();
  await expect(status).toHaveText("You are subscribed to 2 newsletters.");
  await page.getByRole("button", { name: "Unsubscribe from all" }).click();
  await expect(status).toHaveText("You are not subscribed to any newsletters.");
  await expect(page.getByRole("button", { name: "Subscribe to The Daily Brief" })).toBeVisible();
  // Marketing e-mail is not a newsletter: it stays until unsubscribed by itself.
  await page.getByRole("button", { name: "Unsubscribe from Event Invitations" }).click();
  await expect(page.getByRole("button", { name: "Subscribe to Event Invitations" })).toBeVisible();
});

/** Runs `npm run newsletter:send` against the site's database and returns the unsubscribe link mailed to `email`. */
async function sendAndFindUnsubscribeLink(site: Site, email: string): Promise<string> {
  const env = { ...process.env, ...databaseEnv(site.database), SITE_URL: site.url, SESSION_SECRET: site.sessionSecret };
  execFileSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "server/newsletters/cli.ts", "the-daily-brief"], {
    env,
    stdio: "pipe",
  });
  const outbox = path.join(site.database.dataDir, "mail");
  for (const file of fs.readdirSync(outbox).sort().reverse()) {
    // Quoted-printable: soft line breaks and "=3D" for "=".
    const text = fs
      .readFileSync(path.join(outbox, file), "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=");
    if (!text.toLowerCase().includes(`to: ${email.toLowerCase()}`)) continue;
    const link = /^List-Unsubscribe: <([^>]+)>/m.exec(text.replace(/\r?\n[ \t]+/g, " "));
    if (link) return new URL(link[1]!).pathname + new URL(link[1]!).search;
  }
  throw new Error(`no newsletter mail for ${email}`);
}

test("the newsletter e-mail's unsubscribe link works without signing in", async ({ page, browser, js, axe, site, signIn }) => {
  const email = uniqueEmail("letter");
  await signIn(email);
  await page.goto("/email-newsletters");
  await page.getByRole("button", { name: "Subscribe to The Daily Brief" }).click();
  await expect(page.getByRole("button", { name: "Unsubscribe from The Daily Brief" })).toBeVisible();
  const link = await sendAndFindUnsubscribeLink(site, email);

  const stranger = await browser.newContext({ javaScriptEnabled: js });
  const mailPage = await stranger.newPage();
  await mailPage.goto(link);
  await expect(mailPage.getByRole("heading", { level: 1, name: "Unsubscribe from The Daily Brief?" })).toBeVisible();
  await axe(mailPage);
  await mailPage.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(mailPage.getByRole("status")).toHaveText("You have been unsubscribed from The Daily Brief.");
  await axe(mailPage);
  await stranger.close();

  await page.reload();
  await expect(page.getByRole("button", { name: "Subscribe to The Daily Brief" })).toBeVisible();
  await page.goto(`${link.slice(0, -3)}xyz`);
  await expect(page.getByRole("alert")).toContainText("This unsubscribe link is not valid.");
});
