import type { Locator, Page } from "@playwright/test";
import { expect, expectWordsInsideButton, test, uniqueEmail } from "./fixtures";

// Video pages with and without JavaScript: the browser's own player (which needs no script of
// ours) and, with it, our controls in its place; captions, playlists, the end screen, and what a subscriber-only video shows to whom.

const player = (page: Page) => page.locator("main video");

/**
 * Plays a video muted (a test is no user gesture, so sound would be refused), from `fromEnd`
 * seconds before its end if given. Waits for the whole document first: a source parsed after
 * play() was called restarts loading and rejects that play().
 */
async function play(video: Locator, fromEnd?: number): Promise<void> {
  await video.page().waitForLoadState("load");
  await video.evaluate(async (el: HTMLVideoElement, before) => {
    el.muted = true;
    if (el.readyState < 1) await new Promise((resolve) => el.addEventListener("loadedmetadata", resolve, { once: true }));
    if (before !== undefined) el.currentTime = Math.max(0, el.duration - before);
    await el.play();
  }, fromEnd);
}

async function openPlaylist(page: Page): Promise<string> {
  await page.goto("/video");
  const section = page.getByRole("region", { name: "The Manager's Toolkit" });
  await section.getByRole("link", { name: "Play all" }).click();
  await expect(page).toHaveURL(/\/video\/\d+\/[a-z0-9-]+\?playlist=the-managers-toolkit$/);
  return new URL(page.url()).pathname;
}

test("a guest watches a free video with captions, and the page has no WCAG 2.2 AA violations", async ({ page, axe, js }) => {
  await openPlaylist(page);
  await expect(player(page)).toBeVisible();
  const title = await page.locator("h1").innerText();
  if (js) {
    // Our controls take over from the browser's: captions on to begin with, as the track says.
    const controls = page.getByRole("group", { name: `Player: ${title}` });
    await expect(player(page)).not.toHaveAttribute("controls");
    const captions = controls.getByRole("button", { name: "Captions" });
    await expect(captions).toHaveAttribute("aria-pressed", "true");
    await captions.click();
    await expect(captions).toHaveAttribute("aria-pressed", "false");
    expect(await player(page).evaluate((el: HTMLVideoElement) => el.textTracks[0]!.mode)).toBe("hidden");
    await captions.click();
    await expect(captions).toHaveAttribute("aria-pressed", "true");
  } else {
    await expect(player(page)).toHaveAttribute("controls", "");
    await expect(page.getByRole("group", { name: /^Player: / })).toHaveCount(0);
  }
  await play(player(page));
  if (js) await expect(page.getByRole("group", { name: `Player: ${title}` }).getByRole("button", { name: "Pause" })).toBeVisible();
  await expect.poll(() => player(page).evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.5);
  const cues = await player(page).evaluate(async (el: HTMLVideoElement) => {
    const track = el.textTracks[0]!;
    track.mode = "showing";
    for (let i = 0; i < 50 && !track.cues?.length; i++) await new Promise((r) => setTimeout(r, 100));
    return track.cues?.length ?? 0;
  });
  expect(cues).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { name: "Share this video" })).toBeVisible();
  await page.getByText("Embed this video").click();
  await expect(page.getByLabel("Copy this code into your page")).toHaveValue(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/video\/embed\//);
  // Scrolled down, the sticky header lies over the player's controls, and axe counts a button
  // under the header's links as too small a target. A reader scrolls the player back into view.
  await page.evaluate(() => window.scrollTo(0, 0));
  await axe(page);
});

test("a playlist shows six videos and Load more adds the rest", async ({ page }) => {
  await openPlaylist(page);
  const list = page.getByRole("complementary", { name: "Playlist: The Manager's Toolkit" }).getByRole("listitem");
  await expect(list).toHaveCount(6);
  await page.getByRole("link", { name: "Load more videos" }).click();
  await expect(list).toHaveCount(9);
  await expect(page.getByRole("link", { name: "Load more videos" })).toHaveCount(0);
  await list.nth(7).getByRole("link").click();
  await expect(page).toHaveURL(/\?playlist=the-managers-toolkit$/);
  await expect(page.locator("aside [aria-current]")).toHaveCount(1);
});

test("the end screen counts down to the next video in the playlist, and can be cancelled or replayed", async ({ page, js }) => {
  const first = await openPlaylist(page);
  const nextTitle = await page.locator("aside ol li").nth(1).getByRole("link").innerText();
  await play(player(page), 0.5);
  const endScreen = page.getByRole("region", { name: "Up next" });
  if (!js) {
    // The end screen is drawn by script: without it, the video simply ends and the playlist leads on.
    await expect.poll(() => player(page).evaluate((el: HTMLVideoElement) => el.ended), { timeout: 30_000 }).toBe(true);
    await expect(endScreen).toHaveCount(0);
    await page.locator("aside ol li").nth(1).getByRole("link").click();
    await expect(page.locator("h1")).toHaveText(nextTitle);
    return;
  }
  await expect(endScreen).toBeVisible();
  await expect(endScreen).toContainText(nextTitle);
  await expectWordsInsideButton(endScreen.getByRole("link", { name: "Play now" }));
  await expect(endScreen.getByRole("timer")).toHaveText(/Playing in (10|9|8) seconds/);
  await endScreen.getByRole("button", { name: "Cancel" }).click();
  await expect(endScreen.getByRole("timer")).toHaveCount(0);
  await endScreen.getByRole("button", { name: "Replay" }).click();
  await expect(endScreen).toHaveCount(0);
  await expect.poll(() => player(page).evaluate((el: HTMLVideoElement) => !el.paused)).toBe(true);
  await expect(page.getByRole("button", { name: "Pause" })).toBeFocused();
  expect(new URL(page.url()).pathname).toBe(first);

  // Left to run, the countdown moves on by itself.
  await play(player(page), 0.5);
  await expect(endScreen).toBeVisible();
  await page.waitForURL((url) => url.pathname !== first, { timeout: 30_000 });
  await expect(page.locator("h1")).toHaveText(nextTitle);
  await expect(page).toHaveURL(/\?playlist=the-managers-toolkit$/);
});

test("a subscriber-only video shows others a way to subscribe, and its subscribers the player, sharing and embed code", async ({
  page,
  axe,
  signIn,
}) => {
  await page.goto("/video");
  const locked = page.getByRole("region", { name: "All videos" }).getByRole("article").filter({ hasText: "For subscribers" }).first();
  const title = await locked.getByRole("heading").innerText();
  await locked.getByRole("link", { name: title, exact: true }).click();
  await expect(page.locator("h1")).toHaveText(title);
  const url = page.url();
  await expect(page.getByRole("heading", { name: "This video is for subscribers" })).toBeVisible();
  await expect(player(page)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Share this video" })).toHaveCount(0);
  await expect(page.getByText("Embed this video")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Subscribe", exact: true }).last()).toHaveAttribute(
    "href",
    "/subscriptions?ab=paywall-video",
  );
  await axe(page);

  await signIn(uniqueEmail("video"), { plan: "digital" });
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "This video is for subscribers" })).toHaveCount(0);
  await expect(player(page)).toBeVisible();
  await play(player(page));
  await expect.poll(() => player(page).evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.5);
  await expect(page.getByRole("heading", { name: "Share this video" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Share on LinkedIn (opens in a new window)" })).toBeVisible();
  await page.getByText("Embed this video").click();
  await expect(page.getByLabel("Copy this code into your page")).toHaveValue(/<iframe /);
});
