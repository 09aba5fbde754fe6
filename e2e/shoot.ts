import path from "node:path";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

// Screenshots for a person to look at: test-results/screens/<project>/<page>-<width>.png.
export const WIDTHS = [320, 390, 768, 1280];
export const SCREENSHOT_WIDTHS = [390, 1280];
/**
 * The project whose run saves the page types' screenshots: the page every reader gets first, with
 * the same stylesheet as with JS. The JS project checks the same widths without saving them (a
 * full-page PNG costs about a second), and shoots only what JS alone draws (the dialogs, the players).
 */
const SHOOTING_PROJECT = "no-js";
/**
 * Pages that JS draws differently once it runs, shot in the JS project too when it has: the
 * players' own controls take over from the browser's (ADR 102).
 */
const playerBarDrawn = (page: Page) => expect(page.getByRole("group", { name: /^Player: / })).toBeVisible();
const DRAWN_BY_JS: Record<string, (page: Page) => Promise<void>> = { video: playerBarDrawn, "podcast-episode": playerBarDrawn };
const SCREENS = path.join(process.env.TEST_RESULTS_DIR ?? "test-results", "screens");

export const screenPath = (project: string, name: string, width: number) => path.join(SCREENS, project, `${name}-${width}.png`);

/**
 * Loads the page once and narrows and widens the window over it, as a reader turning a phone or
 * resizing a window would: the layout must hold at every width without a reload.
 */
export async function shoot(page: Page, project: string, name: string, address: string): Promise<void> {
  await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
  const response = await page.goto(address);
  expect(response?.status(), name).toBeLessThan(400);
  if (project !== SHOOTING_PROJECT) await DRAWN_BY_JS[name]?.(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator("h1").first(), `${name} at ${width} px`).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px: page width`).toBeLessThanOrEqual(
      width,
    );
    if (SCREENSHOT_WIDTHS.includes(width)) await screenshot(page, project, name, width);
  }
}

/** Saves the page as it is now, at its full length, in the shooting project. */
export async function screenshot(page: Page, project: string, name: string, width: number): Promise<void> {
  if (project !== SHOOTING_PROJECT && !(name in DRAWN_BY_JS)) return;
  await page.screenshot({ path: screenPath(project, name, width), fullPage: true, animations: "disabled" });
}
