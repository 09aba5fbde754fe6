import { expect, firstArticlePath, formChecksReady, mailTo, test, uniqueEmail } from "./fixtures";

// Sharing with and without JavaScript: by e-mail from the share page, and to a network from an
// article (the network's page is answered locally: nothing here reaches the internet).

test("a reader shares an article by e-mail; the message is checked first", async ({ page, js, axe, signIn, site }) => {
  await signIn(uniqueEmail("share-mail"));
  const article = await firstArticlePath(page);
  await page.goto(article);
  const title = await page.locator("h1").innerText();
  await page.getByRole("region", { name: "Share this article" }).getByRole("link", { name: "E-mail" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Share “${title}”` })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Share with" }).getByRole("link", { name: "E-mail" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  const recipient = uniqueEmail("colleague");
  await page.getByLabel("Send to").fill(`${recipient}, not an address`);
  if (js) await formChecksReady(page.getByLabel("Send to"));
  await page.getByLabel("Send to").blur();
  const send = page.getByRole("button", { name: "Send" });
  if (js) {
    await expect(page.getByText("Please enter valid email addresses, separated by commas.")).toBeVisible();
    await expect(send).toBeDisabled();
  } else {
    await send.click();
    await expect(
      page.getByRole("alert").getByRole("link", { name: "Please enter valid email addresses, separated by commas." }),
    ).toBeVisible();
  }
  await axe(page);
  await page.getByLabel("Send to").fill(recipient);
  await page.getByLabel("Message (optional)").fill("This one is for the Monday meeting.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status")).toHaveText("Shared via e-mail");

  const mail = await mailTo(site, recipient);
  expect(mail).toContain(article);
  expect(mail).toContain("This one is for the Monday meeting.");
  await page.goto("/my-library/history/sharing");
  await expect(page.locator("main ol li").first()).toContainText("Shared via e-mail");
});

test("a reader shares an article on a network; it goes to their sharing history", async ({ page, context, js, signIn }) => {
  await signIn(uniqueEmail("share-social"));
  const article = await firstArticlePath(page);
  await page.goto(article);
  const share = page.getByRole("region", { name: "Share this article" });
  // The share opens in a window of its own, sent on to X's share page (which this machine cannot reach).
  const posted = context.waitForEvent("response", (r) => new URL(r.url()).pathname === "/share" && r.request().method() === "POST");
  await share.getByRole("button", { name: "Share on X (opens in a new window)" }).click();
  const response = await posted;
  expect(response.status()).toBe(303);
  const target = new URL(response.headers()["location"]!);
  expect(target.origin + target.pathname).toBe("https://x.com/intent/post");
  expect(target.searchParams.get("url")).toMatch(new RegExp(`${article}$`));
  await expect(page).toHaveURL(new RegExp(`${article}$`));
  if (js) await expect(share.getByRole("status")).toHaveText("Shared via Twitter");
  await page.goto("/my-library/history/sharing");
  await expect(page.locator("main ol li").first()).toContainText("Shared via Twitter");
});

test("a guest gets Connect with links to the networks", async ({ page }) => {
  await page.goto(await firstArticlePath(page));
  const share = page.getByRole("region", { name: "Share this article" });
  await expect(share.getByRole("link", { name: "Connect with Facebook (opens in a new window)" })).toHaveAttribute(
    "href",
    /^https:\/\/www\.facebook\.com\/sharer/,
  );
  await expect(share.getByRole("button")).toHaveCount(0);
});

test("Share opens the share tabs, Facebook first: a flyout with JS, the share page without", async ({ page, js, signIn, site }) => {
  await signIn(uniqueEmail("share-tabs"));
  const article = await firstArticlePath(page);
  await page.goto(article);
  const title = await page.locator("h1").innerText();
  await page.getByRole("link", { name: `Share ${title}`, exact: true }).click();
  const recipient = uniqueEmail("tabs-colleague");
  if (js) {
    const flyout = page.getByRole("dialog", { name: `Share “${title}”` });
    await expect(flyout.getByRole("tab", { name: "Facebook" })).toHaveAttribute("aria-selected", "true");
    await expect(flyout.getByRole("button", { name: "Share on Facebook (opens in a new window)" })).toBeVisible();
    await flyout.getByRole("tab", { name: "Facebook" }).press("ArrowLeft");
    await expect(flyout.getByRole("tab", { name: "E-mail" })).toHaveAttribute("aria-selected", "true");
    await flyout.getByLabel("Send to").fill(recipient);
    await flyout.getByRole("button", { name: "Send" }).click();
    await expect(flyout.getByRole("status")).toHaveText("Shared via e-mail");
    await expect(flyout).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${article}$`));
  } else {
    await expect(page).toHaveURL(/\/share\?type=article&id=\d+$/);
    await expect(page.getByRole("navigation", { name: "Share with" }).getByRole("link", { name: "Facebook" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await page.getByRole("navigation", { name: "Share with" }).getByRole("link", { name: "E-mail" }).click();
    await page.getByLabel("Send to").fill(recipient);
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("status")).toHaveText("Shared via e-mail");
  }
  expect(await mailTo(site, recipient)).toContain(article);
});
