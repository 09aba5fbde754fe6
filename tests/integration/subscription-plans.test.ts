import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** Opens the plan's checkout page and posts its form three times at once, as a triple click would. */
async function tripleSubmit(reader: Reader, plan: string) {
  const page = `/subscriptions/checkout?plan=${plan}`;
  const $ = await reader.page(page);
  const checkoutKey = $("input[name=checkoutKey]").val() as string;
  expect(checkoutKey).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  const answers = await Promise.all([1, 2, 3].map(() => reader.request(page, { form: { checkoutKey } })));
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
    const upgrades = await selectFromServer<{ amount_cents: number }>(
      database,
      "SELECT amount_cents FROM invoice WHERE user_id = ? AND kind = 'upgrade'",
      [userId],
    );
    expect(upgrades).toEqual([{ amount_cents: Number(shown![1]) * 100 + Number(shown![2]) }]);
    expect(await selectFromServer(database, "SELECT id FROM subscription_checkout WHERE user_id = ?", [userId])).toHaveLength(1);
    expect((await reader.page("/subscriptions"))("[role=status]").text()).toContain("Your plan: Premium");
  });
});
