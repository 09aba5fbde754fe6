import type { Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "./fixtures";

// The header on a phone: the logo on one line, a menu for the reader's links and the sections,
// a section nav that shows it scrolls, and no more than 64 px kept on screen.
const PHONES = [320, 390];

const header = (page: Page) => page.locator("header[data-site-header]");
const logo = (page: Page) => page.getByRole("link", { name: "Meridian Review", exact: true });

for (const width of PHONES) {
  test(`at ${width} px the logo keeps to one line and the header keeps at most 64 px on screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/the-latest");
    const { height, lineHeight } = await logo(page).evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(el).lineHeight),
    }));
    expect(height).toBeLessThan(lineHeight * 1.5);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(() => header(page).evaluate((el) => el.getBoundingClientRect().top)).toBe(0);
    expect(await header(page).evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(64);
    // The section nav scrolled away with the page.
    expect(await page.getByRole("navigation", { name: "Sections" }).evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(0);
    // The cart keeps its name for screen readers while it shows as an icon.
    await expect(header(page).getByRole("link", { name: "Cart (0 items)" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test("on a phone the section nav shows that it scrolls, and stops showing it at its end", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/the-latest");
  const list = page.getByRole("navigation", { name: "Sections" }).getByRole("list");
  const { scrollWidth, clientWidth } = await list.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  // Sections beyond the edge are cut, not hidden: the last one on screen is partly in view.
  const cut = await list.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    return [...el.querySelectorAll("li")].some((li) => {
      const box = li.getBoundingClientRect();
      return box.left < right && box.right > right;
    });
  });
  expect(cut).toBe(true);
  const shadows = () => list.evaluate((el) => getComputedStyle(el).backgroundAttachment.split(", "));
  // The edge shadows stay put while the covers scroll with the list's content.
  expect(await shadows()).toEqual(["local", "local", "scroll", "scroll", "scroll"]);
  await list.getByRole("link", { name: "Store" }).scrollIntoViewIfNeeded();
  await expect(list.getByRole("link", { name: "Store" })).toBeInViewport();
});

test("on a phone the menu holds the reader's links and every section", async ({ page, js }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/topics");
  // The reader's links are not in the header row on a phone.
  await expect(header(page).getByRole("link", { name: "Sign In" })).toBeHidden();
  if (!js) {
    await header(page).getByRole("link", { name: "Menu" }).click();
    await expect(page).toHaveURL(/\/menu\?return=%2Ftopics$/);
    await expect(page.locator("h1")).toHaveText("Menu");
    const menu = page.locator("main");
    await expect(menu.getByRole("link", { name: "Video" })).toHaveAttribute("href", "/video");
    await menu.getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Ftopics$/);
    return;
  }
  const toggle = header(page).getByRole("button", { name: "Menu" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const panel = page.locator("#site-menu");
  await expect(panel.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(panel.getByRole("link", { name: "Analytic Services" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(toggle).toBeFocused();
  await toggle.click();
  await panel.getByRole("link", { name: "Video" }).click();
  await expect(page).toHaveURL(/\/video$/);
  await expect(panel).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
});

test("on a phone a signed-in reader finds the account links and Log out in the menu", async ({ page, js, signIn }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(uniqueEmail("menu"), { plan: "digital" });
  await page.goto("/the-latest");
  if (js) await header(page).getByRole("button", { name: "Menu" }).click();
  else await header(page).getByRole("link", { name: "Menu" }).click();
  const menu = js ? page.locator("#site-menu") : page.locator("main");
  await expect(menu.getByRole("link", { name: "My Library" })).toBeVisible();
  await expect(menu.getByRole("link", { name: /^My account: / })).toBeVisible();
  await menu.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/the-latest$/);
  // Signed out once the header (its hidden row of links, on a phone) offers Sign In again.
  await expect(header(page).locator('a[href^="/sign-in"]').first()).toBeAttached();
  if (js) await header(page).getByRole("button", { name: "Menu" }).click();
  else await header(page).getByRole("link", { name: "Menu" }).click();
  await expect((js ? page.locator("#site-menu") : page.locator("main")).getByRole("link", { name: "Sign In" })).toBeVisible();
});

test("the menu page is a real page that any browser can open", async ({ page, axe }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const response = await page.goto("/menu?return=%2F%2Fevil.example");
  expect(response?.status()).toBe(200);
  await expect(page.locator("h1")).toHaveText("Menu");
  // A return address off the site is dropped.
  await expect(page.locator("main").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/sign-in?redirectTo=%2F");
  await axe(page);
});

test("on a wide screen a signed-in reader's links are a menu under their name with JS, and links in the row without", async ({
  page,
  js,
  signIn,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(uniqueEmail("account-menu"));
  await page.goto("/topics");
  if (!js) {
    for (const name of ["My Library", "Following"]) await expect(header(page).getByRole("link", { name, exact: true })).toBeVisible();
    await expect(header(page).getByRole("link", { name: "My account: Grace Hopper" })).toHaveAttribute("href", "/my-account");
    await expect(header(page).getByRole("button", { name: "Log out" })).toBeVisible();
    return;
  }
  const toggle = header(page).getByRole("button", { name: "My account: Grace Hopper" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(header(page).getByRole("button", { name: "Log out" })).toBeHidden();
  await toggle.click();
  const menu = page.locator("#account-menu");
  for (const name of ["My Library", "Following", "My account"]) await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(toggle).toBeFocused();
  // A press outside closes it too; choosing a link goes there.
  await toggle.click();
  await page.locator("main h1").click();
  await expect(menu).toBeHidden();
  await toggle.click();
  await menu.getByRole("link", { name: "My Library" }).click();
  await expect(page).toHaveURL(/\/my-library$/);
  await expect(menu).toBeHidden();
});
