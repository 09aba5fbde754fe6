import { expect, registerReader, test, uniqueEmail } from "./fixtures";

// Following topics and the following stream, the guests' sign-in prompt, and newsletters,
// with and without JavaScript.

const PROMPT = "To access this feature, please SIGN IN or REGISTER";

test("a reader follows topics, filters the following stream, and stops following one after confirming", async ({ page, js, axe }) => {
  await registerReader(page, uniqueEmail("follower"), "/topic/subject/strategy");
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
    await page.getByRole("button", { name: "Follow this" }).click();
    await expect(page.getByRole("button", { name: "Following" })).toBeVisible();
  }
  await page.reload();
  await expect(page.getByRole("button", { name: "Following" })).toBeVisible();
  await axe(page);

  await page.getByRole("banner").getByRole("link", { name: /^Following/ }).click();
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
  await page.getByRole("button", { name: "Following" }).click();
  await expect(page.getByRole("button", { name: "Follow this" })).toBeVisible();
  await page.goto("/my-library/topics");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to your topics" })).toBeVisible();
});

test("a guest who tries to follow is asked to sign in or register", async ({ page, js, axe }) => {
  await page.goto("/topic/subject/strategy");
  await page.getByRole("button", { name: "Follow this" }).click();
  await expect(page.getByText(PROMPT)).toBeVisible();
  if (!js) await expect(page).toHaveURL(/\/follow\?redirectTo=%2Ftopic%2Fsubject%2Fstrategy$/);
  await expect(page.getByRole("main").getByRole("link", { name: "SIGN IN" })).toHaveAttribute("href", "/sign-in?redirectTo=%2Ftopic%2Fsubject%2Fstrategy");
  await expect(page.getByRole("main").getByRole("link", { name: "REGISTER" })).toHaveAttribute("href", "/register?redirectTo=%2Ftopic%2Fsubject%2Fstrategy");
  await axe(page);

  await page.goto("/my-library/topics");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fmy-library%2Ftopics$/);
});

test("a reader subscribes to newsletters and campaigns, unsubscribes from one, then from all", async ({ page, axe }) => {
  await registerReader(page, uniqueEmail("newsletters"), "/email-newsletters");
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
