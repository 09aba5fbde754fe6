import type { Page, Request } from "@playwright/test";
import type { Suggestions } from "~/server/search";
import { SUGGEST_MIN_CHARS } from "~/shared/suggest";
import { expect, test } from "./fixtures";

// The header's search field (spec 5 and 9): a plain GET form to /search without JS; with JS a
// WAI-ARIA combobox offering the auto-suggest service's topics and titles.

const header = (page: Page) => page.locator("header[data-site-header]");
const NAME = "Search Meridian Review";
// On the seed data "lead" suggests one topic and six titles.
const TERM = "lead";

/** The term of an auto-suggest request, or null for any other request. */
function suggestTerm(request: Request): string | null {
  const url = new URL(request.url());
  return url.pathname === "/service/search/auto-suggest" ? url.searchParams.get("term") : null;
}

/**
 * Starts waiting for the answer to `term`; the function gives its suggestions' names in the
 * order the list shows them (topics, then titles).
 */
function answerTo(page: Page, term: string): () => Promise<string[]> {
  const response = page.waitForResponse((r) => suggestTerm(r.request()) === term);
  return async () => {
    const body = (await (await response).json()) as Suggestions;
    return [...body.subjects.map((s) => s.name), ...body.records.map((r) => r.title)];
  };
}

/** The list shows these suggestions, in this order, and no others. */
async function expectOptions(page: Page, names: string[]) {
  const options = page.getByRole("listbox", { name: "Search suggestions" }).getByRole("option");
  await expect(options).toHaveCount(names.length);
  await expect(options).toContainText(names);
}

/**
 * What the combobox tests check without JS: the field stays a plain search box, typing in it
 * asks for no suggestions and opens no list, and Enter searches.
 */
async function expectPlainField(page: Page) {
  const asked: string[] = [];
  page.on("request", (request) => suggestTerm(request) !== null && asked.push(request.url()));
  await page.goto("/topics");
  const field = header(page).getByRole("searchbox", { name: NAME });
  await expect(field).not.toHaveAttribute("aria-expanded");
  await field.focus();
  await page.keyboard.type(TERM);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=lead$/);
  await expect(page.getByRole("listbox")).toHaveCount(0);
  expect(asked).toEqual([]);
}

// Measured before the field replaced the header's "Search" link (commit b735de4), for a guest on
// /the-latest: at 390 px the tools wrap into three rows beside the two-line logo, so the header
// was already taller than 64 px there. The field must not make it any taller.
const HEADER_HEIGHT_BEFORE: Record<number, number> = { 390: 156, 1280: 110.5 };

test("the header keeps its height at 390 and 1280 px, also while the narrow field is open", async ({ page, js }) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/the-latest");
    const height = () => header(page).evaluate((h) => h.getBoundingClientRect().height);
    expect(await height()).toBeLessThanOrEqual(HEADER_HEIGHT_BEFORE[width]!);
    if (width === 390) {
      // Folded into an icon; focus opens it over the logo row (CSS only, so with or without JS).
      const submit = header(page).getByRole("button", { name: "Search", exact: true });
      await expect(submit).toBeHidden();
      await header(page).getByLabel(NAME).click();
      await expect(submit).toBeVisible();
      expect(await height()).toBeLessThanOrEqual(HEADER_HEIGHT_BEFORE[width]!);
      const field = await header(page).getByLabel(NAME).boundingBox();
      expect(field!.width).toBeGreaterThan(250);
      if (js) {
        await page.keyboard.type(TERM);
        const listbox = page.getByRole("listbox", { name: "Search suggestions" });
        await expect(listbox).toBeVisible();
        const list = await listbox.boundingBox();
        expect(list!.x).toBeGreaterThanOrEqual(0);
        expect(list!.x + list!.width).toBeLessThanOrEqual(width);
        expect(await height()).toBeLessThanOrEqual(HEADER_HEIGHT_BEFORE[width]!);
        // Following a suggestion folds the field away again.
        await listbox.getByRole("option").first().click();
        await expect(page).not.toHaveURL(/\/the-latest$/);
        await expect(submit).toBeHidden();
      }
    }
  }
});

for (const width of [1280, 390]) {
  test(`the header's field and its Search button search from any page at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/topics");
    const field = header(page).getByLabel(NAME);
    await field.click();
    await field.fill("leadership");
    await header(page).getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/search\?q=leadership$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("main").getByRole("listitem").first()).toBeVisible();
    expect(await page.getByRole("main").getByRole("listitem").getByRole("link").count()).toBeGreaterThan(0);
  });
}

// Without JS each of these checks the plain field instead (expectPlainField).
test.describe("the combobox", () => {
  test("the keyboard alone: arrows move the highlight, Escape closes then clears, Enter follows", async ({ page, axe, js }) => {
    if (!js) return expectPlainField(page);
    await page.goto("/topics");
    const field = header(page).getByRole("combobox", { name: NAME });
    const live = header(page).locator('[aria-live="polite"]');
    await expect(field).toHaveAttribute("aria-autocomplete", "list");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    const listbox = page.locator(`[id="${await field.getAttribute("aria-controls")}"]`);
    await expect(listbox).toHaveAttribute("role", "listbox");

    await field.focus();
    const answered = answerTo(page, TERM);
    await page.keyboard.type(TERM);
    const names = await answered();
    const count = names.length;
    expect(count).toBeGreaterThan(2);
    await expect(field).toHaveAttribute("aria-expanded", "true");
    const options = listbox.getByRole("option");
    // The list shows the answer to the whole term (not one to a term typed on the way).
    await expectOptions(page, names);
    await expect(live).toHaveText(`${count} suggestions available. Use the up and down arrow keys to choose.`);
    await expect(listbox.getByRole("group", { name: "Topics" }).getByRole("option").first()).toContainText("Topic");
    await expect(field).not.toHaveAttribute("aria-activedescendant");

    const highlighted = async (index: number) => {
      await expect(field).toHaveAttribute("aria-activedescendant", (await options.nth(index).getAttribute("id"))!);
      await expect(options.nth(index)).toHaveAttribute("aria-selected", "true");
      await expect(listbox.locator('[aria-selected="true"]')).toHaveCount(1);
    };
    await page.keyboard.press("ArrowDown");
    await highlighted(0);
    await page.keyboard.press("ArrowDown");
    await highlighted(1);
    await page.keyboard.press("ArrowUp");
    await highlighted(0);
    // The highlight wraps both ways.
    await page.keyboard.press("ArrowUp");
    await highlighted(count - 1);
    await page.keyboard.press("ArrowDown");
    await highlighted(0);
    await axe(page);

    await page.keyboard.press("Escape");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await expect(field).not.toHaveAttribute("aria-activedescendant");
    await expect(listbox).toBeHidden();
    await expect(field).toHaveValue(TERM);
    await expect(field).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await highlighted(0);

    // APG: a second Escape clears the field.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await expect(field).toHaveValue("");
    await expect(field).toHaveAttribute("aria-expanded", "false");

    // Retyping opens it again; Enter on a highlighted option follows its link.
    const retyped = answerTo(page, TERM);
    await page.keyboard.type(TERM);
    await expectOptions(page, await retyped());
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await highlighted(1);
    const href = (await options.nth(1).getAttribute("href"))!;
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new URL(href, page.url()).href);
    await expect(field).not.toBeFocused();
    await expect(field).toHaveValue("");
    await expect(field).toHaveAttribute("aria-expanded", "false");
  });

  test("Enter with nothing highlighted searches; Tab closes the list", async ({ page, js }) => {
    if (!js) return expectPlainField(page);
    await page.goto("/topics");
    const field = header(page).getByRole("combobox", { name: NAME });
    await field.focus();
    await page.keyboard.type(TERM);
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await field.focus();
    await page.keyboard.press("ArrowDown");
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowRight");
    await expect(field).not.toHaveAttribute("aria-activedescendant");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=lead$/);
    await expect(page.getByRole("main").getByRole("listitem").first()).toBeVisible();
  });

  test("the mouse: a click outside closes the list, a click on a suggestion follows it", async ({ page, js }) => {
    if (!js) return expectPlainField(page);
    await page.goto("/topics");
    const field = header(page).getByRole("combobox", { name: NAME });
    await field.click();
    await page.keyboard.type(TERM);
    const listbox = page.getByRole("listbox", { name: "Search suggestions" });
    await expect(listbox).toBeVisible();
    await page.getByRole("main").click({ position: { x: 1, y: 1 } });
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await expect(listbox).toBeHidden();

    await field.click();
    await page.keyboard.press("ArrowDown");
    const topic = listbox.getByRole("group", { name: "Topics" }).getByRole("option").first();
    const name = (await topic.locator("span").first().textContent())!;
    await topic.click();
    await expect(page).toHaveURL(/\/topic\/subject\//);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  });

  test(`suggestions wait for ${SUGGEST_MIN_CHARS} characters, and fast typing is throttled`, async ({ page, js }) => {
    if (!js) return expectPlainField(page);
    const terms: string[] = [];
    page.on("request", (request) => {
      const term = suggestTerm(request);
      if (term !== null) terms.push(term);
    });
    await page.goto("/topics");
    const field = header(page).getByRole("combobox", { name: NAME });
    const live = header(page).locator('[aria-live="polite"]');
    await field.focus();
    await page.keyboard.type("le");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    // The third character's request is the first there is: none was made for two.
    const answered = answerTo(page, "lea");
    await page.keyboard.type("a");
    await answered();
    await expect(field).toHaveAttribute("aria-expanded", "true");
    expect(terms).toEqual(["lea"]);

    // Back to two characters: the list and its announcement go.
    await page.keyboard.press("Backspace");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await expect(live).toHaveText("");

    // Ten characters typed in one go make far fewer requests, and the list ends on the last.
    terms.length = 0;
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    const last = answerTo(page, "leadership");
    await page.keyboard.type("leadership");
    await expectOptions(page, await last());
    expect(terms.at(-1)).toBe("leadership");
    expect(terms.length).toBeLessThan("leadership".length - SUGGEST_MIN_CHARS + 1);
  });

  test("an answer with nothing in it is announced, and no list opens", async ({ page, js }) => {
    if (!js) return expectPlainField(page);
    await page.goto("/topics");
    const field = header(page).getByRole("combobox", { name: NAME });
    await field.focus();
    const answered = answerTo(page, "zqxj");
    await page.keyboard.type("zqxj");
    expect(await answered()).toEqual([]);
    await expect(header(page).locator('[aria-live="polite"]')).toHaveText("No suggestions");
    await expect(field).toHaveAttribute("aria-expanded", "false");
  });
});
