import type * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfText, readPdf } from "~/tests/helpers/pdf-reader";
import { registeredReader, type Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { selectFromServer } from "~/tests/helpers/server-db";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// An active subscriber changes plan rather than buying a second one, and a checkout form posted
// several times at once (a double click) opens one checkout: against the production build and
// the built-in sandbox payment provider.

let server: RunningServer;
let database: IsolatedConnection;

beforeAll(async () => {
  database = await isolatedConnection("plan");
  server = await startBuiltServer(
    {
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
    },
    "production",
    database,
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database.drop();
});

const pathOf = (location: string | null) => {
  const url = new URL(location!, server.url);
  return url.pathname + url.search;
};

/** The fields of the form whose submit button reads `button`, as a browser would send them. */
function formOf($: cheerio.CheerioAPI, button: string): Record<string, string> {
  const form = $("form").filter((_, f) => $(f).find("button[type=submit]").text() === button);
  expect(form).toHaveLength(1);
  return Object.fromEntries(
    form
      .find("input[name]")
      .map((_, i) => [[$(i).attr("name")!, String($(i).val() ?? "")]])
      .get(),
  );
}

/** Gives the plan's checkout New York as the billing address, then posts the reviewed form three times at once, as a triple click would. */
async function tripleSubmit(reader: Reader, plan: string) {
  const page = `/subscriptions/checkout?plan=${plan}&countryCode=US&region=NY`;
  const $ = await reader.page(page);
  const form = formOf($, "Continue to payment");
  expect(form.checkoutKey).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  const answers = await Promise.all([1, 2, 3].map(() => reader.request(page, { form })));
  return { $, answers };
}

async function payAndReturn(reader: Reader, checkout: string) {
  const paid = await reader.request(checkout, { form: { cardNumber: "4242 4242 4242 4242" } });
  expect(paid.status).toBe(303);
  const receipt = await reader.request(pathOf(paid.headers.get("location")));
  expect(receipt.status).toBeLessThan(400);
}

/** The one reader this file registers (registeredReader names them Nell Ransome). */
async function registeredUserId(): Promise<string> {
  const rows = await selectFromServer<{ id: string }>(database, "SELECT id FROM app_user WHERE first_name = ? AND last_name = ?", [
    "Nell",
    "Ransome",
  ]);
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

const activeSubscriptions = (userId: string) =>
  selectFromServer<{ role_code: string; access_end: string }>(
    database,
    "SELECT role_code, access_end FROM subscription WHERE user_id = ? AND status = 'active'",
    [userId],
  );

describe("subscribing", () => {
  it("opens one checkout for three posts of the same form, and the subscriber then changes plan instead of adding one", async () => {
    const reader = await registeredReader(server.url);
    const userId = await registeredUserId();

    const { answers } = await tripleSubmit(reader, "digital");
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    const checkouts = new Set(answers.map((a) => pathOf(a.headers.get("location"))));
    expect(checkouts.size).toBe(1);
    const [checkout] = [...checkouts];
    expect(checkout).toMatch(/^\/sandbox-checkout\/sbx_/);
    expect(await selectFromServer(database, "SELECT id FROM subscription_checkout WHERE user_id = ?", [userId])).toHaveLength(1);
    await payAndReturn(reader, checkout!);
    const [digital] = await activeSubscriptions(userId);
    expect(digital).toMatchObject({ role_code: "MRSUB_GOOD" });

    // The plans page now shows the reader's renewing plan and offers a prorated change, not a second plan.
    const $plans = await reader.page("/subscriptions");
    expect($plans("[role=status]").text()).toContain("Your plan: Digital, which renews on");
    const links = $plans("main a")
      .map((_, a) => $plans(a).text())
      .get();
    expect(links).toEqual(expect.arrayContaining(["Manage your plan", "Upgrade to Premium", "Upgrade to Executive"]));
    expect(links).not.toContain("Choose Premium");
    expect(links).not.toContain("Renew Digital");
    // The checkout for another plan, from an old link or a script, leads to the change instead.
    const checkoutPage = await reader.request("/subscriptions/checkout?plan=premium");
    expect(pathOf(checkoutPage.headers.get("location"))).toBe("/my-account/billing/plan?to=premium");

    // The upgrade's quote, confirmed three times at once, charges once what it showed.
    const $quote = await reader.page("/my-account/billing/plan?to=premium");
    const button = $quote("form:has(input[name=quotedAt]) button[type=submit]").text();
    const shown = /^Upgrade and pay \$(\d+)\.(\d{2})$/.exec(button);
    expect(shown).not.toBeNull();
    const form = Object.fromEntries(
      $quote("form input[type=hidden]")
        .map((_, i) => [[$quote(i).attr("name"), $quote(i).val()]])
        .get(),
    );
    const confirms = await Promise.all([1, 2, 3].map(() => reader.request("/my-account/billing/plan", { form })));
    expect(confirms.map((a) => a.status)).toEqual([303, 303, 303]);
    expect(confirms.map((a) => pathOf(a.headers.get("location")))).toContain("/my-account/billing?updated=upgraded");

    const active = await activeSubscriptions(userId);
    expect(active).toEqual([{ role_code: "MRSUB_BEST", access_end: digital!.access_end }]);
    const upgrades = await selectFromServer<{ amount_cents: number; tax_cents: number }>(
      database,
      "SELECT amount_cents, tax_cents FROM invoice WHERE user_id = ? AND kind = 'upgrade'",
      [userId],
    );
    expect(upgrades).toHaveLength(1);
    expect(upgrades[0]!.tax_cents).toBe(Math.round(upgrades[0]!.amount_cents * 0.04));
    expect(upgrades[0]!.amount_cents + upgrades[0]!.tax_cents).toBe(Number(shown![1]) * 100 + Number(shown![2]));
    expect($quote("main").text()).toContain("Tax (NY 4%)");
    expect(await selectFromServer(database, "SELECT id FROM subscription_checkout WHERE user_id = ?", [userId])).toHaveLength(1);
    expect((await reader.page("/subscriptions"))("[role=status]").text()).toContain("Your plan: Premium");
  });
});

describe("sales tax at checkout and in Subscription and billing", () => {
  it("asks the billing address first, shows the tax to the cent before paying, charges exactly that, and invoices it", async () => {
    const reader = await registeredReader(server.url);
    const $address = await reader.page("/subscriptions/checkout?plan=executive&ab=paywall-article");
    expect($address("main h2").text()).toContain("Your billing address");
    expect($address("select[name=countryCode] option").length).toBeGreaterThan(50);
    expect($address("select[name=region] optgroup").length).toBe(2);

    // Bad input is told, field by field, with a 400: at the address step and when posted directly.
    for (const [query, message] of [
      ["countryCode=ZZ&region=", "Please choose your country from the list."],
      ["countryCode=US&region=", "Please choose your state of the United States."],
      ["countryCode=CA&region=TX", "Please choose a province or territory of Canada from the list."],
    ]) {
      const answer = await reader.request(`/subscriptions/checkout?plan=executive&${query}`);
      expect(answer.status, query).toBe(400);
      expect(await answer.text()).toContain(message);
    }
    const posted = await reader.request("/subscriptions/checkout?plan=executive", { form: { countryCode: "US", region: "" } });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain("Please choose your state of the United States.");

    // The review: 7.25% of $450.00 is $32.625, charged as $32.63.
    const review = "/subscriptions/checkout?plan=executive&ab=paywall-article&countryCode=US&region=CA";
    const $review = await reader.page(review);
    const shown = $review("main").text();
    expect(shown).toContain("Tax (CA 7.25%)");
    expect(shown).toContain("$32.63");
    expect(shown).toContain("Total today: $482.63");
    expect(shown).toContain("$482.63 now, then $482.63 every year ($450.00 plus Tax (CA 7.25%) $32.63)");
    const started = await reader.request(review, {
      form: { ...formOf($review, "Continue to payment"), company: "Harbour Analytics Ltd", taxId: "US-12-3456789" },
    });
    expect(started.status).toBe(303);
    const payment = pathOf(started.headers.get("location"));
    expect((await reader.page(payment))("main").text()).toContain("Total due today: $482.63");
    await payAndReturn(reader, payment);

    const $billing = await reader.page("/my-account/billing");
    const plan = $billing("main").text();
    expect(plan).toContain("California, United States");
    expect(plan).toContain("$482.63 ($450.00 + Tax (CA 7.25%) $32.63)");
    const pdf = await reader.request($billing("a[href^='/my-account/billing/invoices/']").attr("href")!);
    expect(pdf.status).toBe(200);
    const text = pdfText((await readPdf(new Uint8Array(await pdf.arrayBuffer()))).pages);
    for (const line of [
      "Harbour Analytics Ltd",
      "California, United States",
      "Tax id: US-12-3456789",
      "Tax (CA 7.25%): $32.63",
      "Total paid: $482.63",
    ])
      expect(text).toContain(line);

    // A new address: refused without its province, then saved for the next renewal.
    const refused = await reader.request("/my-account/billing", { form: { intent: "address", countryCode: "CA", region: "" } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Please choose your province or territory of Canada.");
    const saved = await reader.request("/my-account/billing", { form: { intent: "address", countryCode: "CA", region: "BC" } });
    expect(pathOf(saved.headers.get("location"))).toBe("/my-account/billing?updated=address");
    const notice = (await reader.page("/my-account/billing?updated=address"))("[role=status]").text();
    expect(notice).toMatch(
      /^Your billing address is now British Columbia, Canada\. Your renewal on .* will be \$472\.50 \(\$450\.00 \+ Tax \(Canada GST 5%\) \$22\.50\)\.$/,
    );
  });
});
