import { expect, test, uniqueEmail } from "./fixtures";

// Podcast series pages with and without JavaScript: season tabs, five episodes at a time, the
// Read More fold, the browser's own audio player, and saving an episode.

test("a listener finds a show, moves between seasons, loads more episodes and plays one", async ({ page, js, axe }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Podcasts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Podcasts" })).toBeVisible();
  await page.getByRole("link", { name: "The Long Way Back", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "The Long Way Back" })).toBeVisible();

  const seasons = page.getByRole("navigation", { name: "Seasons" });
  await expect(seasons.getByRole("link", { name: /^Season 1/ })).toHaveAttribute("aria-current", "page");
  const episodes = page.locator("main ol > li");
  await expect(episodes).toHaveCount(5);
  await expect(episodes.first().getByRole("heading", { level: 2 })).toHaveText("Introducing The Long Way Back");
  await axe(page);

  await page.getByRole("link", { name: "Load more items" }).click();
  await expect(episodes).toHaveCount(7);
  await expect(page.getByRole("link", { name: "Load more items" })).toHaveCount(0);
  if (js) await expect(episodes.nth(5).locator("article")).toBeFocused();

  await seasons.getByRole("link", { name: /^Season 2/ }).click();
  await expect(seasons.getByRole("link", { name: /^Season 2/ })).toHaveAttribute("aria-current", "page");
  await expect(episodes).toHaveCount(5);
  await expect(episodes.first()).toContainText("Season 2, Episode 1");

  const first = episodes.first();
  const description = first.locator("p").nth(1);
  if (js) {
    const readMore = first.getByRole("button", { name: "Read More" });
    await expect(readMore).toHaveAttribute("aria-expanded", "false");
    const folded = await description.evaluate((p) => p.clientHeight);
    await readMore.click();
    await expect(first.getByRole("button", { name: "Read Less" })).toHaveAttribute("aria-expanded", "true");
    expect(await description.evaluate((p) => p.clientHeight)).toBeGreaterThan(folded);
  } else {
    await expect(first.getByRole("button", { name: "Read More" })).toHaveCount(0);
  }

  const audio = first.locator("audio");
  await page.waitForLoadState("load");
  await audio.evaluate(async (el: HTMLAudioElement) => {
    el.muted = true;
    await el.play();
  });
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.5);
});

test("a reader saves an episode and finds it in My Library", async ({ page, js, signIn }) => {
  await signIn(uniqueEmail("listener"));
  await page.goto("/podcasts/the-meridian-conversation");
  const episode = page.locator("main ol > li").first();
  const title = await episode.getByRole("heading", { level: 2 }).innerText();
  await episode.getByRole("link", { name: `Save ${title} to My Library` }).click();
  if (js) {
    const flyout = page.getByRole("dialog", { name: `Save “${title}”` });
    await flyout.getByLabel("Or create a new folder").fill("Commute");
    await flyout.getByRole("button", { name: "Save", exact: true }).click();
    await expect(flyout.getByText("Saved!")).toBeVisible();
  } else {
    await page.getByLabel("Or create a new folder").fill("Commute");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("Saved!");
  }
  await page.goto("/my-library/library/commute");
  await page.getByRole("link", { name: title }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/podcasts\/the-meridian-conversation\/\d+-[a-z0-9-]+$/);
});

test("a listener opens an episode's own page from its show, plays it, and finds the way back and on", async ({ page, axe, js }) => {
  await page.goto("/podcasts/the-long-way-back");
  const second = page.locator("main ol > li").nth(1);
  const title = await second.getByRole("heading", { level: 2 }).innerText();
  await second.getByRole("link", { name: title, exact: true }).click();
  await expect(page).toHaveURL(/\/podcasts\/the-long-way-back\/\d+-[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Share this episode" })).toBeVisible();
  await axe(page);

  const audio = page.locator("main audio");
  const position = () => audio.evaluate((el: HTMLAudioElement) => el.currentTime);
  await page.waitForLoadState("load");
  if (js) {
    // Our controls take over from the browser's, around the same <audio>.
    const player = page.getByRole("group", { name: `Player: ${title}` });
    await expect(audio).not.toHaveAttribute("controls");
    await player.getByRole("button", { name: "Mute" }).click();
    await expect(player.getByRole("button", { name: "Mute" })).toHaveAttribute("aria-pressed", "true");
    await player.getByRole("button", { name: "Play" }).click();
    await expect(player.getByRole("button", { name: "Pause" })).toBeVisible();
    await expect.poll(position, { timeout: 30_000 }).toBeGreaterThan(0.5);
    expect(await audio.evaluate((el: HTMLAudioElement) => el.muted)).toBe(true);
    await player.getByLabel("Speed").selectOption("1.5");
    expect(await audio.evaluate((el: HTMLAudioElement) => el.playbackRate)).toBe(1.5);
    await player.getByRole("button", { name: "Pause" }).click();
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.paused)).toBe(true);
    await expect(player.getByRole("button", { name: "Play" })).toBeFocused();
    // Skipped while paused, so a slow machine cannot let the 38-second episode run out first.
    const before = await position();
    await player.getByRole("button", { name: "Forward 15 seconds" }).click();
    await expect.poll(position).toBeCloseTo(before + 15, 0);
    await expect(player.getByRole("slider", { name: "Position" })).toHaveAttribute("aria-valuetext", /^(1[5-9]|[2-9]\d) seconds of /);
  } else {
    await expect(audio).toHaveAttribute("controls", "");
    await expect(page.getByRole("group", { name: /^Player: / })).toHaveCount(0);
    await audio.evaluate(async (el: HTMLAudioElement) => {
      el.muted = true;
      await el.play();
    });
    await expect.poll(position, { timeout: 30_000 }).toBeGreaterThan(0.5);
  }

  const more = () => page.getByRole("navigation", { name: "More from The Long Way Back" });
  await more().getByRole("link", { name: "Introducing The Long Way Back" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Introducing The Long Way Back" })).toBeVisible();
  await more()
    .getByRole("link", { name: /^All \d+ episodes$/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "The Long Way Back" })).toBeVisible();
});
