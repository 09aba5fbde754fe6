import type { Locator, Page } from "@playwright/test";
import { addForm, expect, test } from "./fixtures";

// Every product has cover art, drawn as the issue covers are: the store lists covers in a grid,
// a product page shows its cover with the buy box, and cart lines have thumbnails.

const HARDCOVER = { id: 1001, path: "/product/the-patient-ledger/1001" };

/** Whether an image arrived and was drawn (an SVG the browser could not read has no width). */
const drawn = (img: Locator) => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

async function columns(list: Locator): Promise<number> {
  return list.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
}

const box = async (page: Page, locator: Locator) => (await locator.boundingBox())!;

for (const [width, across] of [
  [390, 2],
  [1280, 4],
] as const) {
  test(`at ${width} px the store is a grid of ${across} covers across, each drawn and each the product's own`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/store");
    const list = page.locator("main ol").first();
    expect(await columns(list)).toBe(across);
    const covers = list.locator("li img");
    await expect(covers).toHaveCount(8);
    const sources = new Set<string>();
    for (const cover of await covers.all()) {
      await cover.scrollIntoViewIfNeeded();
      await expect.poll(() => drawn(cover)).toBe(true);
      sources.add((await cover.getAttribute("src")) ?? "");
    }
    expect(sources.size).toBe(8);
  });
}

test("a product's cover art names the product, and an unknown product has none", async ({ request }) => {
  const art = await request.get("/art/product/the-patient-ledger.svg");
  expect(art.status()).toBe(200);
  expect(art.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  const svg = await art.text();
  expect(svg).toContain("The Patient Ledger");
  expect(svg).toContain("MERIDIAN REVIEW PRESS");
  expect((await request.get("/art/product/no-such-product.svg")).status()).toBe(404);
  expect((await request.get("/art/product/..%2Fsecrets.svg")).status()).toBe(404);
});

test("a product page shows the cover beside the buy box on a tablet and above it on a desktop", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(HARDCOVER.path);
  const cover = page.getByRole("img", { name: /^Cover of The Patient Ledger/ });
  const buyBox = page.locator("section", { has: page.locator("#buy-heading") });
  await expect.poll(() => drawn(cover)).toBe(true);
  let [c, b] = [await box(page, cover), await box(page, buyBox)];
  expect(c.x + c.width).toBeLessThanOrEqual(b.x);
  expect(Math.abs(c.y - b.y)).toBeLessThan(5);
  await page.setViewportSize({ width: 1280, height: 900 });
  [c, b] = [await box(page, cover), await box(page, buyBox)];
  expect(c.y + c.height).toBeLessThanOrEqual(b.y);
  expect(c.x).toBeGreaterThanOrEqual(b.x);
});

test("each cart line shows its product's cover as a thumbnail", async ({ page, js }) => {
  await page.goto(HARDCOVER.path);
  await addForm(page, HARDCOVER.id).getByRole("button", { name: "Add to Cart" }).click();
  if (js) await expect(page.getByRole("dialog", { name: "Added to your cart" })).toBeVisible();
  else await expect(page.getByRole("heading", { level: 1, name: "Added to your cart" })).toBeVisible();
  // The confirmation's "You might also like" shows covers too.
  const also = page.locator("section", { has: page.getByRole("heading", { name: "You might also like" }) });
  await expect(also.locator("img").first()).toHaveAttribute("src", /^\/art\/product\/[a-z0-9-]+\.svg$/);
  await page.goto("/shopping-cart");
  const thumbnail = page.getByRole("table", { name: "Items to ship" }).locator("tbody tr img");
  await expect(thumbnail).toHaveAttribute("src", "/art/product/the-patient-ledger.svg");
  await expect.poll(() => drawn(thumbnail)).toBe(true);
});
