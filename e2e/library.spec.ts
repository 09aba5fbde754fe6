import type { Page } from "@playwright/test";
import { accountMenuItem, expect, formChecksReady, test, uniqueEmail } from "./fixtures";

// My Library with and without JavaScript: saving (guests are sent to registration), folders with
// the spec's name rules and messages, bulk actions with their counted confirmations, discard.

const FOLDER_NAME_MESSAGE = "Folder title must be 30 characters or less and consisting of English letters, numbers or spaces.";
const FOLDER_EXISTS_MESSAGE = "A folder with this title already exists.";

const cards = (page: Page) => page.locator("main ol article");

/** Saves the latest stream's card `index` through the save page (no JS) or the flyout (JS). */
async function saveFromStream(page: Page, js: boolean, index: number, newFolder?: string): Promise<string> {
  await page.goto("/the-latest");
  const card = cards(page).nth(index);
  const title = await card.getByRole("heading").innerText();
  await card.getByRole("link", { name: `Save ${title} to My Library` }).click();
  const panel = js ? page.getByRole("dialog", { name: `Save “${title}”` }) : page.locator("main");
  if (newFolder) await panel.getByLabel("Or create a new folder").fill(newFolder);
  await panel.getByRole("button", { name: "Save", exact: true }).click();
  await expect(panel.getByRole("status")).toHaveText("Saved!");
  if (js) {
    // The confirmation goes after 2 seconds, and the reader never left the stream.
    await expect(panel).toHaveCount(0);
    await expect(page).toHaveURL(/\/the-latest$/);
  }
  return title;
}

test("a guest who saves is asked to register first", async ({ page, js }) => {
  await page.goto("/the-latest");
  const card = cards(page).first();
  const title = await card.getByRole("heading").innerText();
  await card.getByRole("link", { name: `Save ${title} to My Library` }).click();
  if (js) {
    await expect(page.getByRole("dialog", { name: "Create an account" })).toBeVisible();
    await expect(page).toHaveURL(/\/the-latest$/);
  } else {
    await expect(page).toHaveURL(/\/register\?redirectTo=%2Fmy-library%2Fsave/);
    await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
  }
});

test("a reader saves articles into folders and finds them in My Library", async ({ page, js, axe, signIn }) => {
  await signIn(uniqueEmail("library-save"));
  const first = await saveFromStream(page, js, 0, "Board prep");
  const second = await saveFromStream(page, js, 1);
  await (await accountMenuItem(page, js, "link", "My Library")).click();
  await expect(page.getByRole("heading", { level: 1, name: "My Library" })).toBeVisible();
  const items = page.locator("#library-items li");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(second);
  await page
    .getByRole("navigation", { name: "Folders" })
    .getByRole("link", { name: /Board prep/ })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Board prep" })).toBeVisible();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(first);
  await axe(page);
});

test("folders: the name rules and their messages, rename, and delete with Yes/No", async ({ page, js, axe, signIn }) => {
  await signIn(uniqueEmail("library-folders"));
  await page.goto("/my-library");
  await expect(page.getByText("Welcome to My Library.")).toBeVisible();
  await page.getByRole("link", { name: "New folder" }).click();
  const name = page.getByLabel("New folder title");
  const save = page.getByRole("button", { name: "Save", exact: true });

  await name.fill("R&D notes");
  if (js) {
    // With JS the message shows as the reader leaves the field, and Save waits for a valid name.
    await formChecksReady(name);
    await name.blur();
    await expect(page.getByText(FOLDER_NAME_MESSAGE)).toBeVisible();
    await expect(save).toBeDisabled();
    await name.fill("Research notes");
    await expect(save).toBeEnabled();
    await name.fill("R&D notes");
    await name.press("Tab");
  } else {
    await save.click();
    await expect(page).toHaveTitle(/^Error: /);
    await expect(page.getByRole("alert").getByRole("link", { name: FOLDER_NAME_MESSAGE })).toBeVisible();
  }
  await name.fill("Research notes");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/my-library\/library\/research-notes\?done=folder-created$/);
  await expect(page.getByRole("status")).toHaveText("Folder created.");
  await expect(page.getByText("Your new folder is ready.")).toBeVisible();

  // The same name with other case and spacing is taken.
  await page.getByRole("link", { name: "New folder" }).click();
  await page.getByLabel("New folder title").fill("research  NOTES");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("alert").getByRole("link", { name: FOLDER_EXISTS_MESSAGE })).toBeVisible();
  await axe(page);

  await page.goto("/my-library/library/research-notes");
  await page.getByRole("link", { name: "Edit folder" }).click();
  await page.getByLabel("Folder title").fill("Reading for Q3");
  await page.getByLabel("Description (optional)").fill("Before the offsite");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/my-library\/library\/reading-for-q3\?done=folder-updated$/);
  await expect(page.getByText("Before the offsite")).toBeVisible();

  await page.getByRole("link", { name: "Delete folder" }).click();
  await page.getByRole("link", { name: "No" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Reading for Q3" })).toBeVisible();
  await page.getByRole("link", { name: "Delete folder" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/my-library\?done=folder-deleted$/);
  await expect(page.getByRole("navigation", { name: "Folders" }).getByRole("link", { name: /Reading for Q3/ })).toHaveCount(0);
});

test("bulk actions and discard, each with its confirmation", async ({ page, js, signIn }) => {
  await signIn(uniqueEmail("library-bulk"), { from: "/the-latest" });
  for (const i of [0, 1, 2]) await saveFromStream(page, js, i, i === 0 ? "Keep" : undefined);
  await page.goto("/my-library");
  const items = page.locator("#library-items li");
  await expect(items).toHaveCount(3);

  await items.nth(0).getByRole("checkbox").check();
  await items.nth(1).getByRole("checkbox").check();
  await page.getByRole("group", { name: "Add them to these folders:" }).getByLabel("Keep").check();
  await page.getByRole("button", { name: "Add to folders" }).click();
  await expect(page.getByRole("status")).toHaveText("2 item(s) added to folders");
  await expect(page.getByRole("navigation", { name: "Folders" }).getByRole("link", { name: /Keep/ })).toContainText("3");

  await items.nth(1).getByRole("checkbox").check();
  await items.nth(2).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Remove from My Library" }).click();
  await expect(page.getByRole("status")).toHaveText("2 item(s) removed from My Library");
  await expect(items).toHaveCount(1);

  const last = await items.first().getByRole("heading").innerText();
  await items
    .first()
    .getByRole("link", { name: `Organize ${last}` })
    .click();
  await page.getByLabel("Keep").uncheck();
  await page.getByRole("button", { name: "Update folders" }).click();
  await expect(page.getByRole("status")).toHaveText("Folders Updated");

  await items
    .first()
    .getByRole("button", { name: `Discard ${last}` })
    .click();
  await expect(page.getByRole("status")).toHaveText("Removed from My Library");
  await expect(page.getByText("Welcome to My Library.")).toBeVisible();
});
