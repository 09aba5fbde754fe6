import { expect, test, uniqueEmail } from "./fixtures";

// The subscriber onboarding message: once, on the next page a new subscriber opens. A modal
// dialog with JS, a message at the top of the page without; and the page /welcome any time.
const TITLE = "Welcome to your Digital subscription, Grace";

test("a new subscriber sees the onboarding message once; with JS it is a dialog that Escape or Ok, thanks closes", async ({
  page,
  js,
  signIn,
  axe,
}) => {
  await signIn(uniqueEmail("onboarding"), { plan: "digital", onboarded: false, from: "/topics" });
  if (!js) {
    const message = page.getByRole("region", { name: TITLE });
    await expect(message).toBeVisible();
    await axe(page);
    await message.getByRole("button", { name: "Ok, thanks" }).click();
    await expect(page).toHaveURL(/\/topics$/);
    await expect(message).toHaveCount(0);
    return;
  }
  const dialog = page.getByRole("dialog", { name: TITLE });
  await expect(dialog).toBeVisible();
  // Modal: the page behind takes no focus, and what has focus is inside the dialog.
  expect(await dialog.evaluate((d: HTMLDialogElement) => d.matches(":modal") && d.contains(document.activeElement))).toBe(true);
  await axe(page);
  const posted = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/dismiss") && r.request().method() === "POST");
  await page.keyboard.press("Escape");
  await posted;
  await expect(dialog).toHaveCount(0);
  await expect(page.locator("main#main")).toBeFocused();
  // Escape counted as seen: the next page does not show it again.
  await page.goto("/the-latest");
  await expect(page.locator("h1")).toHaveText("The Latest");
  await expect(page.getByRole("dialog", { name: TITLE })).toHaveCount(0);
});

test("the message's code arriving after the page has hydrated still finds the message in place", async ({ page, js, signIn }) => {
  // Held until React has taken the rest of the page over: until then the message is the server's HTML.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/OnboardingOverlay-[\w-]{8}\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await signIn(uniqueEmail("onboarding-late"), { plan: "digital", onboarded: false });
  const opening = page.goto("/topics");
  if (js) {
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    release();
  }
  await opening;
  await expect(page.getByRole(js ? "dialog" : "region", { name: TITLE })).toBeVisible();
});

test("the onboarding message is also the page /welcome, for subscribers only", async ({ page, signIn }) => {
  await page.goto("/welcome");
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Fwelcome$/);
  await signIn(uniqueEmail("welcome-reader"));
  await page.goto("/welcome");
  await expect(page).toHaveURL(/\/subscriptions$/);
  await signIn(uniqueEmail("welcome-subscriber"), { plan: "digital", onboarded: false });
  await page.goto("/welcome");
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  // The page is the message: no dialog or second copy over it.
  await expect(page.getByText(TITLE)).toHaveCount(1);
  await expect(page.getByRole("link", { name: "magazine archive" })).toHaveAttribute("href", "/magazine");
});
