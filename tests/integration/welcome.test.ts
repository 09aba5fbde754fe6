import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader } from "~/tests/helpers/reader";
import { startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import { freePort } from "~/tests/helpers/free-port";
import { hasSubject, plainText, startLoopbackSmtp, WELCOME_SUBJECT, type LoopbackSmtp } from "~/tests/helpers/smtp";

// The welcome mail (issue 37): every way of opening an account (the registration page, the
// service API's two register calls, subscriber registration) mails one welcome with what the
// account gives and the publisher's footer, and a mail server that is down fails no registration.

const PASSWORD = "Lantern5!quay";
const PUBLISHER = { PUBLISHER_NAME: "Meridian Review Publishing", PUBLISHER_ADDRESS: "60 Harbor Street; Boston, MA 02210" };

let site: ApiSite;
let smtp: LoopbackSmtp;
let counter = 0;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  site = await startApiSite("welcome", { SMTP_URL: smtp.url, RATE_LIMIT_PER_ACCOUNT: "1000", ...PUBLISHER });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

const uniqueEmail = (label: string) => `${label}.${++counter}.${process.pid}.${Date.now()}@example.org`;

/** The welcomes mailed to an address so far. Registration awaits its welcome, so it has come by the time the answer has. */
const welcomesTo = (email: string) =>
  smtp.received
    .filter((m) => m.rcptTo.includes(email) && hasSubject(m, WELCOME_SUBJECT))
    .map((m) => plainText(m.raw).replace(/\r\n/g, "\n"));

function expectFooter(text: string) {
  expect(text).toContain("--\nMeridian Review Publishing\n60 Harbor Street\nBoston, MA 02210\n");
  expect(text).toContain(`Your account: ${site.server.url}/my-account`);
}

describe("the welcome mail", () => {
  it("welcomes a reader who registers on the page once, with the free allowance and where to go next", async () => {
    const email = uniqueEmail("page");
    const reader = new Reader(site.server.url);
    const form = { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD };
    expect((await reader.request("/register", { form })).status).toBe(303);
    const [welcome, ...more] = welcomesTo(email);
    expect(more).toHaveLength(0);
    expect(welcome).toContain("Hello Nell,");
    expect(welcome).toContain("- 8 articles a month, where a visitor who has not registered reads 4");
    for (const path of ["/my-account", "/email-newsletters", "/subscriptions", "/my-library", "/topics"])
      expect(welcome).toContain(`${site.server.url}${path}`);
    expect(welcome).toContain("our plans start at $12.00 a month");
    expectFooter(welcome!);

    // The same address again is refused ("taken") and welcomed no second time.
    expect((await new Reader(site.server.url).request("/register", { form })).status).toBe(409);
    expect(welcomesTo(email)).toHaveLength(1);
  });

  it("welcomes a reader who registers through either API call", async () => {
    for (const path of ["/api/user/register", "/service/user/register"]) {
      const email = uniqueEmail("api");
      const made = await site.contract.call(new Reader(site.server.url), "POST", path, {
        body: { firstName: "Ada", lastName: "Quill", emailAddress: email, password: PASSWORD, deviceType: "WEB_SITE" },
      });
      expect(made.status, path).toBe(201);
      const welcomes = welcomesTo(email);
      expect(welcomes, path).toHaveLength(1);
      expect(welcomes[0]).toContain("Hello Ada,");
      expectFooter(welcomes[0]!);
    }
  });

  it("welcomes a print subscriber who opens a web account with the subscription it connected", async () => {
    const email = uniqueEmail("print");
    const accountNumber = `MRW${process.pid % 1000}${++counter}`;
    await site.database
      .insertInto("print_subscriber")
      .values({
        account_number: accountNumber,
        email,
        first_name: "Ines",
        last_name: "Achterberg",
        source: "CDS_US",
        subscription_code: "PRINT-BETTER",
        active: 1,
        access_start: "2024-07-01",
        access_end: "2099-06-30",
      })
      .execute();
    const registered = await site.contract.call(new Reader(site.server.url), "POST", "/api/user/subscriber/register", {
      body: { emailAddress: email, accountNumber, password: PASSWORD, id: "welcome-print" },
    });
    expect(registered.status).toBe(201);
    const [welcome, ...more] = welcomesTo(email);
    expect(more).toHaveLength(0);
    expect(welcome).toContain("Hello Ines,");
    expect(welcome).toContain("Your print subscription (Digital + Print) is now connected to this account");
    expect(welcome).not.toContain("articles a month");
    expectFooter(welcome!);
  });
});

describe("a registration while the mail server is down", () => {
  let down: ApiSite;
  beforeAll(async () => {
    // Nothing listens on a port just given back: every send is refused at once.
    down = await startApiSite("welcome-down", { SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, ...PUBLISHER });
  }, 120_000);
  afterAll(async () => {
    await down?.stop();
  });

  it("still opens the account and signs the reader in, and logs the failed welcome", async () => {
    const email = uniqueEmail("down");
    const reader = new Reader(down.server.url);
    const res = await reader.request("/register", {
      form: { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD },
    });
    expect(res.status).toBe(303);
    expect((await reader.request("/my-account")).status).toBe(200);
    expect(await down.database.selectFrom("app_user").select("id").where("email", "=", email).execute()).toHaveLength(1);
    expect(down.server.errors()).toContain("welcome mail failed");
  });
});
