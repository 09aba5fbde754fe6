import type { Page } from "@playwright/test";
import { accountControl, createReader, expect, formChecksReady, PASSWORD, test, uniqueEmail } from "./fixtures";

// The sign-in modal (spec). With JS the account links open a dialog in place; without JS they
// stay links to the account pages. Every test runs in both projects: the no-JS branch checks
// that the same clicks reach the pages.

const header = (page: Page) => page.locator("header[data-site-header]");
const INVALID = "You have entered an invalid email and password combination. Please try again.";
const RESET_SENT = "If your email is registered with us, you will receive an email with a link to reset your password.";
const UNAVAILABLE = "That username is unavailable. Sign in or choose another email address.";

test("the header's Sign In opens the sign-in dialog in place; Escape closes it and focus returns", async ({ page, js }) => {
  await page.goto("/topics");
  const opener = header(page).getByRole("link", { name: "Sign In" });
  await opener.click();
  if (js) {
    const dialog = page.getByRole("dialog", { name: "Sign in to your account" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/topics$/);
    // Focus is inside the dialog, the page behind does not scroll, and the screens switch in place.
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
    await dialog.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("dialog", { name: "Reset your password" })).toBeVisible();
    await page.getByRole("dialog").getByRole("link", { name: "Back to sign in" }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Create an account" }).click();
    await expect(page.getByRole("dialog", { name: "Create an account" })).toBeVisible();
    await page.getByRole("dialog").getByRole("link", { name: "Sign in", exact: true }).click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/topics$/);

    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(opener).toBeFocused();
    // The dialog's close event comes a task after it leaves the accessibility tree: wait for it.
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");

    // The Close button closes it too.
    await opener.click();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(opener).toBeFocused();
  } else {
    await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Ftopics$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to your account" })).toBeVisible();
    await expect(page.locator("dialog")).toHaveCount(0);
  }
});

test("a failed sign-in shows the invalid-credentials message in the dialog", async ({ page, js }) => {
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Sign In" }).click();
  const scope = js ? page.getByRole("dialog", { name: "Sign in to your account" }) : page.locator("main");
  await scope.getByLabel("Email address").fill(uniqueEmail("modal-wrong"));
  await scope.getByLabel("Password", { exact: true }).fill("Wrong1!password");
  await scope.getByRole("button", { name: "Sign In" }).click();
  // Spec §8: the first wrong password already counts the tries left, in the dialog as on the page.
  await expect(scope.locator("#sign-in-error").getByText(`${INVALID} You have 4 tries left.`, { exact: true })).toBeVisible();
  await expect(scope.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  if (js) {
    await expect(page).toHaveURL(/\/topics$/);
    await expect(scope.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
  } else {
    await expect(page).toHaveURL(/\/sign-in/);
  }
});

test("a successful sign-in closes the dialog and the header shows the reader", async ({ page, js, site }) => {
  const email = uniqueEmail("modal-signin");
  await createReader(site, email);
  await page.goto("/search?q=leadership");
  await header(page).getByRole("link", { name: "Sign In" }).click();
  const scope = js ? page.getByRole("dialog", { name: "Sign in to your account" }) : page.locator("main");
  await scope.getByLabel("Email address").fill(email);
  await scope.getByLabel("Password", { exact: true }).fill(PASSWORD);
  if (js) {
    // Hold the answer back a moment to see the pending wording on the button.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/sign-in\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await scope.getByRole("button", { name: "Sign In" }).click();
    await expect(scope.getByRole("button", { name: "Success, you will now be redirected" })).toBeDisabled();
    release();
  } else {
    await scope.getByRole("button", { name: "Sign In" }).click();
  }
  await expect(accountControl(page, "My account: Grace Hopper")).toBeVisible();
  // Back on the page the reader was reading, in either project.
  await expect(page).toHaveURL(/\/search\?q=leadership$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("registering in the dialog moves on to profile settings; saving closes it", async ({ page, js }) => {
  const email = uniqueEmail("modal-register");
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Register" }).click();
  if (js) {
    const dialog = page.getByRole("dialog", { name: "Create an account" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/topics$/);
    await dialog.getByLabel("First name").fill("Grace");
    await dialog.getByLabel("Last name").fill("Hopper");
    await dialog.getByLabel("Email address").fill(email);
    await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await dialog.getByRole("button", { name: "Create Account" }).click();

    const profile = page.getByRole("dialog", { name: "Profile settings" });
    await expect(profile).toBeVisible();
    await expect(page).toHaveURL(/\/topics$/);
    await expect(accountControl(page, "My account: Grace Hopper")).toBeAttached();
    await expect(profile.getByLabel("Email address")).toHaveValue(email);
    await profile.getByLabel("Display name").fill("Rear Admiral Hopper");
    await profile.getByLabel("Industry").selectOption("IT/Technology");
    await profile.getByRole("button", { name: "Save Profile" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(accountControl(page, "My account: Rear Admiral Hopper")).toBeVisible();
    await page.goto("/my-account");
    await expect(page.getByLabel("Industry")).toHaveValue("IT/Technology");
  } else {
    await expect(page).toHaveURL(/\/register\?redirectTo=%2Ftopics$/);
    await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
    await expect(page.locator("dialog")).toHaveCount(0);
  }
});

test("registration's messages: a malformed address, and an address in use with a link to reset its password", async ({
  page,
  js,
  site,
}) => {
  const taken = uniqueEmail("modal-taken");
  await createReader(site, taken);
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Register" }).click();
  const scope = js ? page.getByRole("dialog", { name: "Create an account" }) : page.locator("main");
  const emailField = scope.getByLabel("Email address");
  const password = scope.getByLabel("Password", { exact: true });
  const error = scope.locator("#register-emailAddress-error");
  await scope.getByLabel("First name").fill("Grace");
  await scope.getByLabel("Last name").fill("Hopper");
  await emailField.fill("not-an-address");
  if (js) {
    // The dialog's words (spec §5 and §8), as the field is left.
    await formChecksReady(emailField);
    await password.focus();
    await expect(error).toHaveText("Email address is not valid.");
  } else {
    // Its page's, the registration form's (§5).
    await scope.getByRole("button", { name: "Create Account" }).click();
    await expect(error).toHaveText("This email address is not valid.");
  }
  await emailField.fill(taken);
  await password.fill(PASSWORD);
  await scope.getByRole("button", { name: "Create Account" }).click();
  await expect(error).toHaveText(`${UNAVAILABLE} Forgot your password? Reset it here.`);
  await error.getByRole("link", { name: "Reset it here" }).click();
  if (js) await expect(page.getByRole("dialog", { name: "Reset your password" })).toBeVisible();
  else await expect(page).toHaveURL(/\/forgot-password$/);
});

test("forgot password in the dialog shows the confirmation for 7 s, then the dialog closes", async ({ page, js, site }) => {
  const email = uniqueEmail("modal-forgot");
  await createReader(site, email);
  // The page's timers run on a clock the test holds still, then moves on by hand.
  if (js) await page.clock.install();
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Sign In" }).click();
  if (js) {
    await page.getByRole("dialog").getByRole("link", { name: "Forgot your password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset your password" });
    await dialog.getByLabel("Email address").fill(email);
    await page.clock.pauseAt(Date.now() + 60_000);
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(dialog.getByRole("status")).toHaveText(RESET_SENT);
    // Focus moves to the title as the confirmation's time starts.
    await expect(dialog.getByRole("heading", { name: "Reset your password" })).toBeFocused();
    await page.clock.runFor(6_999);
    await expect(dialog.getByRole("status")).toHaveText(RESET_SENT);
    await page.clock.runFor(1);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/topics$/);
  } else {
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByRole("status")).toHaveText(RESET_SENT);
  }
});

test("the dialog has no WCAG 2.2 AA violations", async ({ page, js, axe }) => {
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Sign In" }).click();
  if (js) {
    const dialog = page.getByRole("dialog", { name: "Sign in to your account" });
    await expect(dialog).toBeVisible();
    await axe(page);
    // With an error, and on the registration screen.
    await dialog.getByLabel("Email address").fill(uniqueEmail("modal-axe"));
    await dialog.getByLabel("Password", { exact: true }).fill("Wrong1!password");
    await dialog.getByRole("button", { name: "Sign In" }).click();
    await expect(dialog.locator("#sign-in-error")).toBeVisible();
    await axe(page);
    await dialog.getByRole("link", { name: "Create an account", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Create an account" }).getByLabel("First name")).toBeVisible();
    await axe(page);
  } else {
    await expect(page).toHaveURL(/\/sign-in/);
    await axe(page);
  }
});

test("on a narrow screen the dialog is marked while an input has focus", async ({ page, js }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await page.goto("/topics");
  // On a phone, Sign In is in the header's menu.
  await header(page)
    .getByRole(js ? "button" : "link", { name: "Menu" })
    .click();
  await page.getByRole("link", { name: "Sign In" }).click();
  if (js) {
    const dialog = page.getByRole("dialog", { name: "Sign in to your account" });
    await expect(dialog).toBeVisible();
    const classes = () => dialog.evaluate((d) => d.className.split(/\s+/).length);
    const closed = await classes();
    await dialog.getByLabel("Email address").focus();
    await expect.poll(classes).toBe(closed + 1);
    await dialog.getByRole("button", { name: "Close" }).focus();
    await expect.poll(classes).toBe(closed);
  } else {
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to your account" })).toBeVisible();
    await expect(page.getByLabel("Email address")).toBeVisible();
  }
});

test("if the dialog's code cannot be loaded, Sign In still leads to the sign-in page", async ({ page, browserErrors }) => {
  // The dialog loads after hydration, in a chunk of its own (ADR 049).
  browserErrors.allow(/Failed to load resource: net::ERR_FAILED \(\S+\/assets\/AuthModal-[\w-]{8}\.js\)$/);
  await page.route(/\/assets\/AuthModal-[\w-]{8}\.js$/, (route) => route.abort());
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/sign-in(\?|$)/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to your account");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
