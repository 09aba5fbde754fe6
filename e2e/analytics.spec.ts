import type { Page } from "@playwright/test";
import { expect, logOutFromHeader, test, uniqueEmail } from "./fixtures";

// The analytics data layer is on every page for a tag manager to read, and with JS it follows
// the reader through in-place navigations.

/** The reader's state as the page's data layer script says it. */
async function userState(page: Page, js: boolean): Promise<string> {
  if (js)
    return page.evaluate(
      () => (window as unknown as { meridianDataLayer: { user: { userState: string } } }).meridianDataLayer.user.userState,
    );
  const script = (await page.locator("head script[data-analytics]").textContent()) ?? "";
  return (JSON.parse(script.replace(/^window\.meridianDataLayer=/, "").replace(/;$/, "")) as { user: { userState: string } }).user
    .userState;
}

test("the data layer tells a guest from a reader, and follows a log-out without a reload", async ({ page, js, signIn }) => {
  await page.goto("/topics");
  expect(await userState(page, js)).toBe("Guest");
  await signIn(uniqueEmail("analytics"), { from: "/topics" });
  expect(await userState(page, js)).toBe("Registered");
  await logOutFromHeader(page, js);
  await expect(page.locator("header[data-site-header]").getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect.poll(() => userState(page, js)).toBe("Guest");
});
