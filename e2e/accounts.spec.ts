import type { Page } from "@playwright/test";
import {
  accountControl,
  createReader,
  expect,
  formChecksReady,
  logOutFromHeader,
  mailTo,
  PASSWORD,
  registerThroughPage,
  resetLinkFor,
  test,
  uniqueEmail,
} from "./fixtures";
import { COUNTRY_HEADER } from "./site";

const header = (page: Page) => page.locator("header[data-site-header]");

test("a reader registers, lands back where they were with the confirmation, and logs out", async ({ page, js }) => {
  const email = uniqueEmail("register");
  await registerThroughPage(page, email, "/the-latest");
  await expect(page).toHaveURL(/\/the-latest\?registration=success$/);
  await expect(page.getByRole("status").filter({ hasText: "Thank you for registering" })).toBeVisible();
  await expect(accountControl(page, "My account: Grace Hopper")).toBeVisible();
  await page.getByRole("link", { name: "Close the registration message" }).click();
  await expect(page.getByText("Thank you for registering")).toBeHidden();
  await logOutFromHeader(page, js);
  await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(page).toHaveURL(/\/the-latest/);
});

const EU_NOTE = /^We will only send you these emails if you tick this box\. You can withdraw your consent at any time by writing to /;

for (const { country, where, ticked, label, note } of [
  { country: "DE", where: "the EU", ticked: false, label: /^Sign me up for email updates/, note: true },
  { country: "US", where: "the US", ticked: true, label: /^By registering, you agree to receive occasional emails/, note: false },
  { country: "JP", where: "elsewhere", ticked: false, label: /^Sign me up for email updates/, note: false },
]) {
  test(`a visitor from ${where} (${country}) gets the opt-in ${ticked ? "ticked" : "unticked"}, ${note ? "with" : "without"} the consent note`, async ({
    page,
  }) => {
    await page.setExtraHTTPHeaders({ [COUNTRY_HEADER]: country });
    await page.goto("/register");
    const optIn = page.getByRole("checkbox", { name: label });
    if (ticked) await expect(optIn).toBeChecked();
    else await expect(optIn).not.toBeChecked();
    if (note) {
      await expect(page.getByText(EU_NOTE)).toBeVisible();
      await expect(optIn).toHaveAccessibleDescription(EU_NOTE);
    } else {
      await expect(page.getByText("withdraw your consent")).toHaveCount(0);
    }
  });
}

test("registration explains every problem: summary, inline messages and an Error: title", async ({ page, js, axe }) => {
  await page.goto("/register");
  if (js) {
    // With JS the button waits for a valid form, and each field is checked as it is left.
    await expect(page.getByRole("button", { name: "Create Account" })).toBeDisabled();
    await formChecksReady(page.getByLabel("Email address"));
    await page.getByLabel("Email address").fill("not-an-address");
    await page.getByLabel("First name").focus();
    await expect(page.getByText("This email address is not valid.")).toBeVisible();
    await page.getByLabel("First name").fill("Ada (admin)");
    await page.getByLabel("Last name").focus();
    await expect(page.getByText("Please enter a valid first name.")).toBeVisible();
    await page.getByLabel("First name").fill("Ada");
    await expect(page.getByText("Please enter a valid first name.")).toBeHidden();
  } else {
    await page.getByLabel("Email address").fill("not-an-address");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveTitle(/^Error: Create an account/);
    const summary = page.getByRole("alert");
    await expect(summary.getByRole("heading", { name: "There is a problem" })).toBeVisible();
    await expect(summary.getByRole("link", { name: "This field is required." })).toHaveCount(2);
    await expect(summary.getByRole("link", { name: "This email address is not valid." })).toHaveAttribute("href", "#register-emailAddress");
    await expect(summary.getByRole("link", { name: /^Passwords must meet the following criteria/ })).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveValue("not-an-address");
    await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await axe(page);
  }
});

test("a form whose checks could not be loaded is checked by the server instead", async ({ page, js, browserErrors }) => {
  // The registration schema's module (ADR 047), app/lib/accounts/account-forms.ts: with JS the form asks for it
  // once it has hydrated. Its chunk's name is "account-forms" and an 8-character hash.
  browserErrors.allow(/Failed to load resource: net::ERR_FAILED \(\S+\/assets\/account-forms-[\w-]{8}\.js\)$/);
  let asked = 0;
  await page.route(/\/assets\/account-forms-[\w-]{8}\.js$/, (route) => {
    asked += 1;
    return route.abort();
  });
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.goto("/register");
  if (js) await expect.poll(() => asked).toBeGreaterThan(0);
  const create = page.getByRole("button", { name: "Create Account" });
  await expect(create).toBeEnabled();
  await page.getByLabel("Email address").fill("not-an-address");
  await page.getByLabel("First name").focus();
  await create.click();
  await expect(page).toHaveTitle(/^Error: Create an account/);
  const summary = page.getByRole("alert");
  await expect(summary.getByRole("link", { name: "This email address is not valid." })).toHaveAttribute("href", "#register-emailAddress");
  await expect(page.getByLabel("Email address")).toHaveValue("not-an-address");
  // Leaving a field sent nothing: the one request is the submit.
  expect(posts).toHaveLength(1);
});

test("a field left before the form's checks have loaded is checked once they arrive", async ({ page, js }) => {
  // The registration schema's chunk (see above) is held back until the reader has left the
  // field, as on a slow phone.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(/\/assets\/account-forms-[\w-]{8}\.js$/, async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.goto("/register", { waitUntil: "domcontentloaded" });
  const emailField = page.getByLabel("Email address");
  await emailField.fill("not-an-address");
  await page.getByLabel("First name").focus();
  if (js) {
    await expect.poll(() => asked).toBe(true);
    await expect(emailField).not.toHaveAttribute("aria-invalid");
    release();
    await formChecksReady(emailField);
    await expect(page.locator("#register-emailAddress-error")).toHaveText("This email address is not valid.");
    await expect(emailField).toHaveAttribute("aria-invalid", "true");
    // Only the field that was left: the one being filled in, and the others, have no message yet.
    await expect(page.getByText("This field is required.")).toHaveCount(0);
  } else {
    // Without JS the field is checked when the form is sent.
    release();
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("#register-emailAddress-error")).toHaveText("This email address is not valid.");
  }
});

test("text typed before the page's scripts ran is checked once the form's checks have loaded", async ({ page, js }) => {
  // The page's entry script is held back, so the reader types into the server's HTML.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]{8}\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const loaded = page.goto("/register", { waitUntil: "commit" });
  const emailField = page.getByLabel("Email address");
  await emailField.fill("not-an-address");
  await page.getByLabel("First name").focus();
  release();
  await loaded;
  if (js) {
    await formChecksReady(emailField);
    await expect(page.locator("#register-emailAddress-error")).toHaveText("This email address is not valid.");
    await expect(page.getByText("This field is required.")).toHaveCount(0);
  } else {
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.locator("#register-emailAddress-error")).toHaveText("This email address is not valid.");
  }
});

test("an address that already has an account is unavailable", async ({ page, site }) => {
  const email = uniqueEmail("taken");
  await createReader(site, email);
  await page.goto("/register");
  await page.getByLabel("First name").fill("Another");
  await page.getByLabel("Last name").fill("Person");
  await page.getByLabel("Email address").fill(email.toUpperCase());
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  const error = page.locator("#register-emailAddress-error");
  await expect(error).toHaveText(
    "That username is unavailable. Sign in or choose another email address. Forgot your password? Reset it here.",
  );
  await error.getByRole("link", { name: "Reset it here" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
});

test("a blocked address is sent to the restricted-user page", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("First name").fill("Blocked");
  await page.getByLabel("Last name").fill("Reader");
  await page.getByLabel("Email address").fill(uniqueEmail("x").replace("example.org", "blocked-domain.example"));
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/restricted-user$/);
  await expect(
    page.getByText("We're having trouble verifying your account. Please contact our Customer Service team for assistance."),
  ).toBeVisible();
});

test("a print subscriber is sent to subscriber registration and links the subscription", async ({ page }) => {
  const [email, account] = ["ruth.okafor@example.com", "MR10045521"];
  await page.goto("/register");
  await page.getByLabel("First name").fill("Print");
  await page.getByLabel("Last name").fill("Subscriber");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/subscriber-registration\?emailAddress=/);
  expect(Buffer.from(decodeURIComponent(new URL(page.url()).searchParams.get("emailAddress")!), "base64").toString()).toBe(email);
  await expect(page.getByLabel("Email address")).toHaveValue(email);
  await page.getByLabel("Subscriber account number").fill("MR00000000");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Activate Account" }).click();
  await expect(page.getByText("No Active Subscriptions Found", { exact: false }).first()).toBeVisible();
  await page.getByLabel("Subscriber account number").fill(account);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Activate Account" }).click();
  await expect(page).toHaveURL(/registration=success/);
  // The account carries the name on the print record, and the print tier (PRINT-BETTER).
  await expect(accountControl(page, "My account: Ruth Okafor, Digital + Print subscriber")).toBeVisible();
});

test("sign-in failures count down, then block the address", async ({ page }) => {
  const email = uniqueEmail("locked");
  await page.goto("/sign-in");
  const attempt = async () => {
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Wrong1!password");
    await page.getByRole("button", { name: "Sign In" }).click();
  };
  await attempt();
  const message = page.locator("#sign-in-error");
  // Spec §8: the first wrong password already counts the tries left.
  await expect(
    message.getByText("You have entered an invalid email and password combination. Please try again. You have 4 tries left.", {
      exact: true,
    }),
  ).toBeVisible();
  await expect(message.getByRole("link", { name: "Reset your password" })).toBeVisible();
  await expect(message.getByRole("link", { name: "create an account" })).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
  await attempt();
  await expect(message.getByText(/Please try again\. You have 3 tries left\.$/)).toBeVisible();
  await attempt();
  // Each attempt waits for its answer: a second click while the first is in flight would abort it.
  await expect(message.getByText(/You have 2 tries left\.$/)).toBeVisible();
  await attempt();
  await expect(message.getByText(/You have 1 try left\.$/)).toBeVisible();
  await attempt();
  await expect(
    message.getByText(
      "Your account is blocked, please wait 15 minutes to unlock and try again. For immediate assistance, please contact Customer Service.",
    ),
  ).toBeVisible();
});

test("a reader signs in and is returned to the page they came from", async ({ page, site }) => {
  const email = uniqueEmail("signin");
  await createReader(site, email);
  await page.goto("/topics");
  await header(page).getByRole("link", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/topics$/);
  await expect(accountControl(page, "My account: Grace Hopper")).toBeVisible();
});

test("forgot password mails a single-use link that sets a new password", async ({ page, site }) => {
  const email = uniqueEmail("forgot");
  await createReader(site, email);
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(
    page.getByText("If your email is registered with us, you will receive an email with a link to reset your password."),
  ).toBeVisible();

  const link = await resetLinkFor(site, email);
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("Fresh9!harbour");
  await page.getByLabel("Confirm new password").fill("Fresh9!harbour");
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(page.getByText("Password successfully changed. Sign in with your new password.")).toBeVisible();
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Fresh9!harbour");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(accountControl(page, "My account: Grace Hopper")).toBeVisible();

  await page.goto(link);
  await expect(page.getByText("This password reset link has expired or has already been used.")).toBeVisible();
});

test("my account saves the profile and changes the password with the spec's messages", async ({ page, axe, signIn }) => {
  await signIn(uniqueEmail("account"));
  await page.goto("/my-account");
  await page.getByLabel("Display name").fill("G. Hopper");
  await page.getByLabel("Industry").selectOption("IT/Technology");
  await page.getByLabel("Job title").selectOption("Executive/C-Level");
  await page.getByLabel("Company size").selectOption("10000+");
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByText("Your profile has been saved.")).toBeVisible();
  await expect(page.getByLabel("Industry")).toHaveValue("IT/Technology");
  await expect(accountControl(page, "My account: G. Hopper")).toBeVisible();

  await page.getByLabel("Current password").fill("Not7!thepassword");
  await page.getByLabel("New password", { exact: true }).fill("Newer8!harbour");
  await page.getByLabel("Confirm new password").fill("Newer8!harbour");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.locator("#change-password-currentPassword-error")).toHaveText("Current Password is invalid");
  await axe(page);

  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("Newer8!harbour");
  await page.getByLabel("Confirm new password").fill("Newer8!harbour");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Password successfully changed.")).toBeVisible();
});

test("a new email address needs the password and takes effect from the link mailed to it", async ({ page, axe, signIn, site }) => {
  const email = uniqueEmail("mover");
  const next = uniqueEmail("moved");
  await signIn(email);
  await page.goto("/my-account");
  await page.getByLabel("Email address").fill(next);
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.locator("#profile-currentPassword-error")).toHaveText("Current Password is required");
  await page.getByLabel("Email address").fill(next);
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: `We have sent a link to ${next}.` })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(email);

  const link = new URL((await mailTo(site, next, /confirm-email\?token=/)).match(/https?:\/\/\S+\/confirm-email\?token=[\w%-]+/)![0]);
  await page.goto(link.pathname + link.search);
  await axe(page);
  await page.getByRole("button", { name: "Confirm Email Address" }).click();
  await expect(page.getByText("Your email address has been changed.")).toBeVisible();
  await page.goto("/my-account");
  await expect(page.getByLabel("Email address")).toHaveValue(next);
  await mailTo(site, email, /email address was changed/);
});

test("account pages have no WCAG 2.2 AA violations", async ({ page, axe }) => {
  for (const path of ["/sign-in", "/register", "/forgot-password", "/subscriber-help", "/privacy-policy", "/restricted-user"]) {
    await page.goto(path);
    await axe(page);
  }
});
