import { execFile } from "node:child_process";
import crypto from "node:crypto";
import { promisify } from "node:util";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "~/server/accounts/registration";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey } from "~/server/desk/api-keys";
import { getAuthor } from "~/server/desk/catalogue/authors";
import { getDeskTopic } from "~/server/desk/catalogue/topics";
import { getDeskEpisode, getDeskVideo } from "~/server/desk/media";
import { COMMAND_LINE } from "~/server/desk/audit";
import { createIssue, queueIssue } from "~/server/newsletters/issues";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import { ROLES, type Role } from "~/shared/staff-roles";
import { ApiContract } from "~/tests/helpers/api-contract";
import { deskPeople, STAFF_PASSWORD } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { databaseEnv, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk (ADR 072, 073) through the production build: who sees it at all, the whole matrix of
// roles × the desk's actions, the second factor at its door, the staff command line's link, and
// the audit log those actions leave. Staff sign in and enrol through the pages, as people do.

const PASSWORD = STAFF_PASSWORD;
let server: RunningServer;
/** Tells apart the reading lists the matrix makes. */
let listCounter = 0;
/** Tells apart the magazine issues the matrix makes: one a year, from 2040. */
let issueCounter = 0;
let connection: IsolatedConnection;
let db: Database;

beforeAll(async () => {
  connection = await isolatedConnection("desk");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

const people = () => deskPeople(server.url, db);
const uniqueEmail = (name: string) => people().uniqueEmail(name);
const signedInReader = (name: string) => people().signedInReader(name);
const enrol = (reader: Reader, link: string) => people().enrol(reader, link);
const staffMember = (roles: Role[]) => people().staffMember(roles);

/** Someone for an admin's action to act on: a reader who is an editor. */
async function target(): Promise<{ userId: string; email: string }> {
  const email = uniqueEmail("target");
  const made = await register(db, { firstName: "Target", lastName: "Desk", email, password: PASSWORD, optIn: false });
  if (!made.ok) throw new Error(made.reason);
  await addStaff(db, COMMAND_LINE, email, ["editor"], new Date());
  return { userId: made.user.id, email };
}

interface DeskCall {
  name: string;
  allowed: readonly Role[];
  /** What an allowed call answers: a page, or a redirect after a post. */
  ok: 200 | 303;
  call: (reader: Reader) => Promise<Response>;
}

const form = (entries: [string, string][]) => new URLSearchParams(entries);

/** Counts what the matrix makes, so each name is new. */
let made = 0;

/** Every action the desk has (server/desk/roles.ts), as a browser calls it. */
const CALLS: DeskCall[] = [
  { name: "desk home", ok: 200, allowed: ROLES, call: (r) => r.request("/desk") },
  { name: "own second factor", ok: 200, allowed: ROLES, call: (r) => r.request("/desk/security") },
  { name: "new recovery codes", ok: 303, allowed: ROLES, call: (r) => r.request("/desk/security", { form: { intent: "recovery-codes" } }) },
  { name: "staff list", ok: 200, allowed: ["admin"], call: (r) => r.request("/desk/staff") },
  {
    name: "add staff",
    ok: 303,
    allowed: ["admin"],
    call: async (r) =>
      r.request("/desk/staff", {
        form: form([
          ["intent", "add"],
          ["email", (await signedInReader("added")).email],
          ["roles", "service"],
        ]),
      }),
  },
  { name: "staff member", ok: 200, allowed: ["admin"], call: async (r) => r.request(`/desk/staff/${(await target()).userId}`) },
  {
    name: "change roles",
    ok: 303,
    allowed: ["admin"],
    call: async (r) =>
      r.request(`/desk/staff/${(await target()).userId}`, {
        form: form([
          ["intent", "roles"],
          ["roles", "store"],
          ["roles", "editor"],
        ]),
      }),
  },
  {
    name: "new enrolment link",
    ok: 303,
    allowed: ["admin"],
    call: async (r) => r.request(`/desk/staff/${(await target()).userId}`, { form: { intent: "enrolment-link" } }),
  },
  {
    name: "remove staff",
    ok: 303,
    allowed: ["admin"],
    call: async (r) => r.request(`/desk/staff/${(await target()).userId}`, { form: { intent: "remove" } }),
  },
  { name: "audit log", ok: 200, allowed: ["admin"], call: (r) => r.request("/desk/audit?action=staff.add") },
  { name: "authors", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/authors?q=a&page=2") },
  { name: "an author", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/authors/1") },
  { name: "new author form", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/authors/new") },
  {
    name: "add an author",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) => r.request("/desk/authors/new", { form: { name: `Matrix Author ${++made}`, role: "Writer", bio: "Writes." } }),
  },
  {
    name: "save an author",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const { version, name, bio } = (await getAuthor(db, 1))!;
      return r.request("/desk/authors/1", { form: { version: String(version), name, bio, role: `Role ${++made}` } });
    },
  },
  { name: "topics", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/topics?q=strategy") },
  { name: "a topic", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/topics/1") },
  { name: "new topic form", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/topics/new") },
  {
    name: "add a topic",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) => r.request("/desk/topics/new", { form: { name: `Matrix Topic ${++made}`, description: "Made.", subject: "Strategy" } }),
  },
  {
    name: "save a topic",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const topic = (await getDeskTopic(db, 1))!;
      return r.request("/desk/topics/1", {
        form: { version: String(topic.version), name: topic.name, description: `${topic.description.split(" (")[0]} (${++made})` },
      });
    },
  },
  { name: "API keys", ok: 200, allowed: ["admin"], call: (r) => r.request("/desk/api-keys") },
  {
    name: "revoke an API key",
    ok: 303,
    allowed: ["admin"],
    call: async (r) => {
      const { apiKey } = await createApiKey(db, COMMAND_LINE, "Matrix", ["editor"], new Date());
      return r.request("/desk/api-keys", { form: { intent: "revoke", keyId: apiKey.id } });
    },
  },
  { name: "home page's stories", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/home") },
  {
    name: "choose the home page's stories",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const { version } = await db.selectFrom("home_curation").select("version").executeTakeFirstOrThrow();
      return r.request("/desk/home", { form: { version: String(version), intent: "remove-0" } });
    },
  },
  { name: "reading lists", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/reading-lists") },
  { name: "a reading list", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/reading-lists/1") },
  {
    name: "new reading list",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) => r.request("/desk/reading-lists/new", { form: { name: "Matrix", slug: `matrix-${++listCounter}` } }),
  },
  {
    name: "save a reading list",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const list = await db.selectFrom("reading_list").select(["slug", "name", "version"]).where("id", "=", 1).executeTakeFirstOrThrow();
      const items = await db.selectFrom("reading_list_item").select("article_id").where("list_id", "=", 1).orderBy("position").execute();
      return r.request("/desk/reading-lists/1", {
        form: form([
          ["name", list.name],
          ["slug", list.slug],
          ["version", String(list.version)],
          ...items.map((item): [string, string] => ["item", String(item.article_id)]),
          ["intent", "save"],
        ]),
      });
    },
  },
  { name: "newsletters", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/newsletters?page=2") },
  {
    name: "compose an issue",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) => r.request("/desk/newsletters", { form: { intent: "compose", newsletter: "the-daily-brief" } }),
  },
  {
    name: "an issue",
    ok: 200,
    allowed: ["admin", "editor"],
    call: async (r) => r.request(`/desk/newsletters/issues/${(await draft()).id}`),
  },
  {
    name: "save an issue",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const { id, version, subject } = await draft();
      return r.request(`/desk/newsletters/issues/${id}`, {
        form: { version: String(version), subject: `${subject} (${++made})`, intro: "Hello.", intent: "save" },
      });
    },
  },
  {
    name: "preview an issue",
    ok: 200,
    allowed: ["admin", "editor"],
    call: async (r) => r.request(`/desk/newsletters/issues/${(await draft()).id}/preview`),
  },
  {
    name: "send a test of an issue",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => r.request(`/desk/newsletters/issues/${(await draft()).id}`, { form: { intent: "test" } }),
  },
  {
    name: "an issue's send page",
    ok: 200,
    allowed: ["admin", "editor"],
    call: async (r) => r.request(`/desk/newsletters/issues/${(await draft()).id}/send`),
  },
  {
    name: "schedule an issue",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const { id, version } = await draft();
      return r.request(`/desk/newsletters/issues/${id}/send`, {
        form: { intent: "schedule", version: String(version), sendAt: "2099-01-01T09:00" },
      });
    },
  },
  {
    name: "take an issue off the schedule",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const { id, version } = await draft();
      await queueIssue(db, COMMAND_LINE, id, version, new Date("2099-01-01T09:00:00Z"), new Date());
      return r.request(`/desk/newsletters/issues/${id}`, { form: { intent: "unschedule" } });
    },
  },
  { name: "magazine issues", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/magazine?year=1974&page=1") },
  { name: "a magazine issue", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/magazine/1") },
  { name: "new magazine issue form", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/magazine/new") },
  {
    name: "add a magazine issue",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) =>
      r.request("/desk/magazine/new", {
        form: { year: String(2040 + ++issueCounter), month: "1", title: "Matrix", summary: "Made by the matrix." },
      }),
  },
  {
    name: "save a magazine issue",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const issue = await db.selectFrom("magazine_issue").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
      return r.request("/desk/magazine/1", {
        form: {
          code: issue.code,
          year: String(issue.year),
          month: String(issue.month),
          title: issue.title,
          summary: `${issue.summary.split(" (")[0]} (${++made})`,
          version: String(issue.version),
          intent: "save",
        },
      });
    },
  },
  { name: "a magazine issue's cover", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/magazine/1/cover") },
  {
    name: "remove a magazine issue's cover",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) => r.request("/desk/magazine/1/cover", { form: { intent: "remove" } }),
  },
  { name: "videos", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/videos?q=a&page=1") },
  { name: "a video", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/videos/6300001") },
  { name: "new video form", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/videos/new") },
  {
    name: "add a video",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) =>
      r.request("/desk/videos/new", {
        form: { title: `Matrix Video ${++made}`, description: "Made.", topic: "Operations", published: "2026-03-10" },
      }),
  },
  {
    name: "save a video",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const video = (await getDeskVideo(db, 6_300_001))!;
      return r.request("/desk/videos/6300001", {
        form: new URLSearchParams([
          ["version", String(video.version)],
          ["title", video.title],
          ["description", video.description],
          ["topic", video.topic],
          ["tags", `matrix ${++made}`],
          ["published", video.published],
          ...video.playlists.map((slug): [string, string] => ["playlists", slug]),
        ]),
      });
    },
  },
  { name: "a video's files", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/videos/6300001/files") },
  { name: "podcasts", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/podcasts") },
  { name: "a series' episodes", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/podcasts/the-long-way-back?q=the") },
  { name: "an episode", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/podcasts/the-long-way-back/1") },
  {
    name: "add an episode",
    ok: 303,
    allowed: ["admin", "editor"],
    call: (r) =>
      r.request("/desk/podcasts/the-long-way-back/new", {
        form: {
          title: `Matrix ${++made}`,
          description: "Made.",
          pubDate: "2026-03-10",
          season: "9",
          episode: String(made),
          episodeType: "bonus",
        },
      }),
  },
  {
    name: "save an episode",
    ok: 303,
    allowed: ["admin", "editor"],
    call: async (r) => {
      const e = (await getDeskEpisode(db, "the-long-way-back", 1))!;
      return r.request("/desk/podcasts/the-long-way-back/1", {
        form: {
          version: String(e.version),
          title: e.title,
          description: `${e.description.split(" (")[0]} (${++made})`,
          pubDate: e.pubDate,
          season: String(e.season),
          episode: String(e.episode),
          episodeType: e.episodeType,
        },
      });
    },
  },
  { name: "an episode's audio", ok: 200, allowed: ["admin", "editor"], call: (r) => r.request("/desk/podcasts/the-long-way-back/1/audio") },
  { name: "find readers", ok: 200, allowed: ["admin", "service"], call: (r) => r.request("/desk/readers?q=target") },
  {
    name: "a reader",
    ok: 200,
    allowed: ["admin", "service"],
    call: async (r) => r.request(`/desk/readers/${(await serviceTarget()).userId}`),
  },
  {
    name: "unlock a reader",
    ok: 303,
    allowed: ["admin", "service"],
    call: async (r) => {
      const reader = await serviceTarget();
      await db
        .insertInto("login_failure")
        .values({ email: reader.email, failures: 2, first_lockout_at: null, locked_until: null })
        .execute();
      return r.request(`/desk/readers/${reader.userId}`, { form: { intent: "unlock", key: formKey(), reason: "Matrix" } });
    },
  },
  {
    name: "grant a complimentary subscription",
    ok: 303,
    allowed: ["admin", "service"],
    call: async (r) =>
      r.request(`/desk/readers/${(await serviceTarget()).userId}`, {
        form: {
          intent: "comp",
          key: formKey(),
          reason: "Matrix",
          tier: "GOOD",
          endsOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        },
      }),
  },
  { name: "orders", ok: 200, allowed: ["admin", "store", "service"], call: (r) => r.request("/desk/orders?state=paid") },
  { name: "orders as CSV", ok: 200, allowed: ["admin", "store", "service"], call: (r) => r.request("/desk/orders.csv?state=paid") },
  {
    name: "an order",
    ok: 200,
    allowed: ["admin", "store", "service"],
    call: async (r) => r.request(`/desk/orders/${(await freeOrder()).number}`),
  },
  {
    name: "dispatch an order",
    ok: 303,
    allowed: ["admin", "store"],
    call: async (r) =>
      r.request(`/desk/orders/${(await freeOrder()).number}`, {
        form: { intent: "fulfil", token: crypto.randomUUID(), lines: "1", carrier: "ups", trackingNumber: "1Z999" },
      }),
  },
  { name: "reports", ok: 200, allowed: ["admin", "store"], call: (r) => r.request("/desk/reports?from=2026-01-01&to=2026-01-31") },
  { name: "a report as CSV", ok: 200, allowed: ["admin", "store"], call: (r) => r.request("/desk/reports/sales.csv") },
  { name: "products", ok: 200, allowed: ["admin", "store"], call: (r) => r.request("/desk/products?status=on-sale") },
  {
    name: "a product's format",
    ok: 200,
    allowed: ["admin", "store"],
    call: async (r) => {
      const { id, product_id } = await db
        .selectFrom("product_availability")
        .select(["id", "product_id"])
        .orderBy("id")
        .executeTakeFirstOrThrow();
      return r.request(`/desk/products/${product_id}/formats/${id}`);
    },
  },
  {
    name: "add a product",
    ok: 303,
    allowed: ["admin", "store"],
    call: (r) =>
      r.request("/desk/products/new", {
        form: {
          title: `Matrix Product ${++made}`,
          productType: "Book",
          topic: "Strategy",
          authors: "Mara Quinn",
          summary: "A matrix product.",
          description: "Made by the roles matrix.",
          published: "2026-01-01",
          pages: "10",
        },
      }),
  },
  { name: "offers", ok: 200, allowed: ["admin", "store"], call: (r) => r.request("/desk/offers") },
  {
    name: "add a promo code",
    ok: 303,
    allowed: ["admin", "store"],
    call: (r) =>
      r.request("/desk/offers/promo-codes/new", {
        form: { code: `MATRIX-${++made}-${process.pid}`, description: "Matrix", percentOff: "5", startsOn: "2026-01-01" },
      }),
  },
  {
    name: "refund an order",
    ok: 303,
    allowed: ["admin", "store", "service"],
    call: async (r) =>
      r.request(`/desk/orders/${(await freeOrder()).number}`, {
        form: { intent: "refund", token: crypto.randomUUID(), "qty-2": "1", reason: "Matrix" },
      }),
  },
];

/** A reader for customer service's calls to act on. */
async function serviceTarget(): Promise<{ userId: string; email: string }> {
  const email = uniqueEmail("service-target");
  const made = await register(db, { firstName: "Service", lastName: "Target", email, password: PASSWORD, optIn: false });
  if (!made.ok) throw new Error(made.reason);
  return { userId: made.user.id, email };
}

/** A reader page's form key, as the page gives one. */
const formKey = () => crypto.randomBytes(16).toString("base64url");

/** A paid order of a hardcover and an ebook that cost nothing (a full discount), for the matrix's order calls: its refunds need no provider. */
async function freeOrder() {
  const pick = await availabilities(db);
  const order = await insertOrder(db, {
    userId: null,
    email: "matrix-buyer@example.org",
    status: "paid",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }],
  });
  await db.updateTable("store_order").set({ subtotal_cents: 0, total_cents: 0 }).where("id", "=", order.id).execute();
  await db.updateTable("store_order_line").set({ unit_price_cents: 0, line_total_cents: 0 }).where("order_id", "=", order.id).execute();
  return order;
}

/** A new draft of a newsletter issue, for the matrix's newsletter calls. */
async function draft() {
  return (await createIssue(db, COMMAND_LINE, "the-chart-room", new Date()))!;
}

describe("who sees the desk", () => {
  it("gives a guest and a reader without a role the site's ordinary 404 for every desk address, GET and POST", async () => {
    const ordinary = await new Reader(server.url).request("/no-such-page/at-all");
    const ordinaryPage = cheerio.load(await ordinary.text());
    const { reader } = await signedInReader("plain");
    const addresses = [
      "/desk",
      "/desk/verify",
      "/desk/enrol",
      "/desk/enrol?token=made-up",
      "/desk/security",
      "/desk/staff",
      "/desk/staff/x",
      "/desk/audit",
      "/desk/api-keys",
      "/desk/authors",
      "/desk/authors/new",
      "/desk/authors/1",
      "/desk/topics",
      "/desk/topics/new",
      "/desk/topics/1",
      "/desk/home",
      "/desk/reading-lists",
      "/desk/reading-lists/new",
      "/desk/reading-lists/1",
      "/desk/magazine",
      "/desk/magazine/new",
      "/desk/magazine/1",
      "/desk/magazine/1/cover",
      "/desk/newsletters",
      "/desk/newsletters/issues/1",
      "/desk/newsletters/issues/1/preview",
      "/desk/newsletters/issues/1/send",
      "/desk/videos",
      "/desk/videos/new",
      "/desk/videos/6300001",
      "/desk/videos/6300001/files",
      "/desk/podcasts",
      "/desk/podcasts/the-long-way-back",
      "/desk/podcasts/the-long-way-back/new",
      "/desk/podcasts/the-long-way-back/1",
      "/desk/orders",
      "/desk/orders.csv",
      "/desk/orders/MR-260101-ABCD",
      "/desk/podcasts/the-long-way-back/1/audio",
      "/desk/products",
      "/desk/products/new",
      "/desk/products/1",
      "/desk/products/1/cover",
      "/desk/products/1/formats/new",
      "/desk/products/1/formats/1001",
      "/desk/products/1/formats/1002/file",
      "/desk/offers",
      "/desk/offers/promo-codes/new",
      "/desk/offers/promo-codes/WELCOME10",
      "/desk/offers/vouchers/new",
      "/desk/offers/vouchers/GIFT-LEDGER-0001",
      "/desk/readers",
      "/desk/readers?q=a",
      "/desk/readers/x",
      "/desk/reports",
      "/desk/reports?from=2026-01-01&to=2026-01-31",
      "/desk/reports/sales.csv",
      "/desk/reports/subscriptions.csv",
      "/desk/reports/funnel.csv",
      "/desk/nothing/here",
      "/desk.data",
    ];
    for (const asker of [new Reader(server.url), reader]) {
      for (const address of addresses) {
        for (const method of ["GET", "POST"] as const) {
          const res = await asker.request(address, method === "POST" ? { form: { intent: "leave", code: "123456" } } : {});
          expect(res.status, `${method} ${address}`).toBe(404);
          expect(res.headers.get("x-robots-tag"), `${method} ${address}`).toBeNull();
          expect(res.headers.get("cache-control"), `${method} ${address}`).toBe(ordinary.headers.get("cache-control"));
          if (address.endsWith(".data")) continue;
          const page = cheerio.load(await res.text());
          expect(page("h1").text(), `${method} ${address}`).toBe(ordinaryPage("h1").text());
          expect(page("title").text()).toBe(ordinaryPage("title").text());
          expect(page("main").text()).toBe(ordinaryPage("main").text());
        }
      }
      // A post from another site is refused as the 404 too, before any form is read.
      const foreign = await asker.request("/desk/verify", {
        form: { code: "123456" },
        headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      });
      expect(foreign.status).toBe(404);
    }
  });

  it("keeps the desk out of the sitemap and robots.txt", async () => {
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).not.toMatch(/desk/i);
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const maps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    for (const map of maps.filter((p) => p.endsWith(".xml")).slice(0, 5)) {
      expect(await (await fetch(server.url + map)).text(), map).not.toMatch(/\/desk/);
    }
  });
});

describe("the desk's door", () => {
  it("sends a signed-in staff member to enter a code, refuses a wrong or replayed one, and lets a recovery code in once", async () => {
    const { reader, email, secret, recoveryCodes } = await staffMember(["editor"]);
    // A new sign-in (a new session) has no desk session.
    const again = await reader.request("/sign-in", { form: { username: email, password: PASSWORD, redirectTo: "/" } });
    expect(again.status).toBe(303);
    const home = await reader.request("/desk/staff?x=1");
    expect(home.status).toBe(303);
    expect(home.headers.get("location")).toBe(`/desk/verify?redirectTo=${encodeURIComponent("/desk/staff?x=1")}`);

    const door = await reader.page("/desk/verify");
    expect(door("meta[name=robots]").attr("content")).toBe("noindex, nofollow");
    const wrong = await reader.request("/desk/verify", { form: { code: "000000", redirectTo: "/desk" } });
    expect(wrong.status).toBe(401);
    expect(
      cheerio
        .load(await wrong.text())("main")
        .text(),
    ).toContain("You have 4 tries left.");

    const used = await reader.request("/desk/verify", { form: { code: recoveryCodes[0]!, redirectTo: "/desk/security" } });
    expect(used.status).toBe(303);
    expect(used.headers.get("location")).toBe("/desk/security");
    expect((await reader.request("/desk")).status).toBe(200);

    const leave = await reader.request("/desk", { form: { intent: "leave" } });
    expect(leave.status).toBe(303);
    expect((await reader.request("/desk")).status).toBe(303);
    expect((await reader.request("/desk/verify", { form: { code: recoveryCodes[0]! } })).status).toBe(401);
    // The code enrolment used is spent; the app's next one lets them in.
    const next = new Date(Math.ceil(Date.now() / 30_000) * 30_000 + 1_000);
    const code = totpCode(secret, next);
    const inside = await reader.request("/desk/verify", { form: { code, redirectTo: "https://evil.example/" } });
    expect(inside.status).toBe(303);
    expect(inside.headers.get("location")).toBe("/desk");
    expect((await reader.request("/desk/verify", { form: { code } })).status).toBe(303); // already inside: the page sends them on
  });

  it("answers desk pages with no-store and noindex", async () => {
    const { reader } = await staffMember(["service"]);
    const res = await reader.request("/desk");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    const page = cheerio.load(await res.text());
    expect(page("meta[name=robots]").attr("content")).toBe("noindex, nofollow");
    expect(
      page("nav[aria-label='Desk areas'] h2")
        .map((_, el) => page(el).text())
        .get(),
    ).toEqual(["Customer service"]);
    // Customer service's pages, in the area's list and the desk's bar: readers, and the store's orders (ADR 086, 087).
    expect(
      page("nav[aria-label='Desk areas'] a, nav[aria-label=Desk] a")
        .map((_, el) => page(el).attr("href"))
        .get(),
    ).toEqual(["/desk/readers", "/desk/orders", "/desk/readers", "/desk/orders"]);
    // The site's cross-site and size rules hold for staff too.
    const foreign = await reader.request("/desk/security", {
      form: { intent: "recovery-codes" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    const huge = await reader.request("/desk/security", { form: { intent: "recovery-codes", filler: "x".repeat(70 * 1024) } });
    expect(huge.status).toBe(413);
  });
});

describe("roles × actions", () => {
  it("lets each role do exactly what server/desk/roles.ts allows: 403 for a staff member whose role may not, 404 for everyone else", async () => {
    const askers: [string, Reader, Role | null][] = [
      ["guest", new Reader(server.url), null],
      ["reader", (await signedInReader("reader")).reader, null],
    ];
    const members: Record<string, string> = {};
    for (const role of ROLES) {
      const member = await staffMember([role]);
      askers.push([role, member.reader, role]);
      members[role] = member.email;
    }
    for (const [label, reader, role] of askers) {
      for (const { name, allowed, ok, call } of CALLS) {
        const res = await call(reader);
        const expected = role === null ? 404 : allowed.includes(role) ? ok : 403;
        expect(res.status, `${label} × ${name}`).toBe(expected);
      }
    }
    // Each allowed action is in the audit log under its actor.
    const rows = await db.selectFrom("desk_audit").select(["actor", "action"]).execute();
    const logged = (actor: string, action: string) => rows.some((row) => row.actor === actor && row.action === action);
    for (const role of ROLES) expect(logged(members[role]!, "recovery-codes.renew"), role).toBe(true);
    for (const action of ["staff.add", "staff.change-roles", "staff.enrolment-link", "staff.remove", "api-key.revoke"])
      expect(logged(members.admin!, action), action).toBe(true);
    for (const role of ["admin", "editor"])
      for (const action of [
        "author.create",
        "author.update",
        "topic.create",
        "topic.update",
        "newsletter-issue.create",
        "newsletter-issue.save",
        "newsletter-issue.test",
        "newsletter-issue.schedule",
        "newsletter-issue.unschedule",
        "video.create",
        "video.update",
        "podcast-episode.create",
        "podcast-episode.update",
      ])
        expect(logged(members[role]!, action), `${role} ${action}`).toBe(true);
    for (const role of ["admin", "service"])
      for (const action of ["reader.unlock", "subscription.comp"]) expect(logged(members[role]!, action), `${role} ${action}`).toBe(true);
    for (const role of ["editor", "store"])
      for (const action of ["reader.unlock", "subscription.comp"]) expect(logged(members[role]!, action), `${role} ${action}`).toBe(false);
    for (const role of ["admin", "store"])
      for (const action of ["order.fulfil", "product.create", "promo-code.create"])
        expect(logged(members[role]!, action), `${role} ${action}`).toBe(true);
    for (const role of ["editor", "service"])
      for (const action of ["product.create", "promo-code.create"]) expect(logged(members[role]!, action), `${role} ${action}`).toBe(false);
    for (const role of ["admin", "store", "service"]) expect(logged(members[role]!, "order.refund"), `${role} order.refund`).toBe(true);
    for (const role of ["editor", "store", "service"])
      expect(
        rows.filter((row) => row.actor === members[role] && row.action.startsWith("staff.")),
        role,
      ).toEqual([]);
  });

  it("ends a member's desk session at once when an admin changes their roles, and shows the admin the audit log of it", async () => {
    const admin = await staffMember(["admin"]);
    const member = await staffMember(["editor"]);
    expect((await member.reader.request("/desk")).status).toBe(200);
    const changed = await admin.reader.request(`/desk/staff/${member.userId}`, {
      form: form([
        ["intent", "roles"],
        ["roles", "store"],
      ]),
    });
    expect(changed.status).toBe(303);
    const after = await member.reader.request("/desk");
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toMatch(/^\/desk\/verify/);

    const log = await admin.reader.page(`/desk/audit?actor=${encodeURIComponent(admin.email)}&action=staff.change-roles`);
    const cells = log("tbody tr")
      .first()
      .find("td")
      .map((_, el) => log(el).text())
      .get();
    expect(cells.slice(1)).toEqual([admin.email, "Changed roles", `staff:${member.email}`, '{"roles":["editor"]}', '{"roles":["store"]}']);
    const bad = await admin.reader.request("/desk/audit?from=yesterday&page=-3");
    expect(bad.status).toBe(200);
    expect(
      cheerio
        .load(await bad.text())("main [role=alert]")
        .text(),
    ).toContain("could not be read");
  });
});

describe("npm run staff", () => {
  it("prints a single-use enrolment link on SITE_URL that makes the reader an admin who can enter the desk", async () => {
    const { reader, email } = await signedInReader("bootstrap");
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "server/desk/cli.ts", ...args], {
        env: { ...process.env, ...databaseEnv(connection), SITE_URL: server.url },
      });
    const { stdout } = await run(["add", "--email", email, "--role", "admin"]);
    const link = stdout.trim().split("\n").at(-1)!;
    expect(link).toMatch(new RegExp(`^${server.url}/desk/enrol\\?token=[\\w-]+$`));
    expect(stdout).toContain("Admin");

    // Signed out, the link asks for a sign-in as that account.
    const path = link.slice(server.url.length);
    const guest = await new Reader(server.url).page(path);
    expect(guest("main a[href^='/sign-in']").attr("href")).toBe(`/sign-in?redirectTo=${encodeURIComponent(path)}`);

    await enrol(reader, link);
    expect((await reader.request("/desk/staff")).status).toBe(200);
    expect((await reader.request(path)).status).toBe(404);

    await expect(run(["add", "--email", "no.account@example.org", "--role", "admin"])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No reader account has the address no.account@example.org. They register at"),
    });
    await expect(run(["add", "--email", email, "--role", "owner"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Unknown role: owner"),
    });
  });
});

/** The staff command line, against the test's database and server. */
const staffCli = (args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", "server/desk/cli.ts", ...args], {
    env: { ...process.env, ...databaseEnv(connection), SITE_URL: server.url },
  });

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe("staff API keys and the Admin API", () => {
  it("prints a key alone on the last line that the Admin API takes, storing only its hash, and lists articles in a documented shape", async () => {
    const { stdout } = await staffCli(["add-key", "--name", "Newsroom sync", "--role", "editor"]);
    const key = stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^mrk_[0-9a-f]{12}_[\w-]{43}$/);
    expect(stdout).toContain("Editor");

    const rows = await db.selectFrom("desk_api_key").selectAll().where("name", "=", "Newsroom sync").execute();
    expect(rows).toHaveLength(1);
    // The secret is what follows "mrk_" and the 12-character prefix; it may hold "_" itself.
    expect(JSON.stringify(rows)).not.toContain(key.slice("mrk_".length + 12 + 1));
    expect(key.startsWith(`${rows[0]!.prefix}_`)).toBe(true);

    const contract = await ApiContract.load(server.url);
    const tag = contract.document.paths["/desk/api/articles"]!.get as unknown as { tags: string[]; security: object[] };
    expect(tag.tags).toEqual(["Admin API"]);
    expect(tag.security).toEqual([{ staffKey: [] }]);

    const list = await fetch(`${server.url}/desk/api/articles`, { headers: bearer(key) });
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    const body = (await contract.check("/desk/api/articles", "get", list)) as {
      page: number;
      pageSize: number;
      total: number;
      items: { slug: string; title: string; status: string; url: string; authors: string[]; topics: string[] }[];
    };
    expect(body.page).toBe(1);
    expect(body.total).toBeGreaterThan(body.items.length - 1);
    expect(body.items.length).toBe(Math.min(body.pageSize, body.total));
    const first = body.items[0]!;
    expect(first.status).toBe("published");
    expect(first.authors.length).toBeGreaterThan(0);
    expect(first.topics.length).toBeGreaterThan(0);
    expect((await fetch(first.url)).status).toBe(200);

    // q finds words in the title, in any case; status filters; page goes on.
    const word = first.title
      .split(" ")
      .find((w) => w.length > 4)!
      .toUpperCase();
    const found = (await (
      await fetch(`${server.url}/desk/api/articles?q=${encodeURIComponent(word)}`, { headers: bearer(key) })
    ).json()) as {
      items: { slug: string }[];
    };
    expect(found.items.map((item) => item.slug)).toContain(first.slug);
    const drafts = (await (await fetch(`${server.url}/desk/api/articles?status=draft`, { headers: bearer(key) })).json()) as {
      total: number;
    };
    expect(drafts.total).toBe(0);
    const far = (await (await fetch(`${server.url}/desk/api/articles?page=9999`, { headers: bearer(key) })).json()) as { items: unknown[] };
    expect(far.items).toEqual([]);
    for (const [query, field] of [
      ["page=0", "page"],
      ["page=two", "page"],
      ["status=live", "status"],
      ["sort=title", "form"],
    ] as const) {
      const bad = await fetch(`${server.url}/desk/api/articles?${query}`, { headers: bearer(key) });
      expect(bad.status, query).toBe(400);
      const error = (await contract.check("/desk/api/articles", "get", bad)) as { fields: Record<string, string[]> };
      expect(Object.keys(error.fields), query).toEqual([field]);
    }

    // Each call is in the audit log under the key, and its last use shows in the desk.
    const calls = await db
      .selectFrom("desk_audit")
      .selectAll()
      .where("action", "=", "api.call")
      .where("actor_id", "=", rows[0]!.id)
      .execute();
    expect(
      calls
        .map((row) => JSON.parse(row.after!) as { status: number })
        .map((a) => a.status)
        .sort(),
    ).toEqual([200, 200, 200, 200, 400, 400, 400, 400].sort());
    expect(calls[0]!.actor).toBe(`API key Newsroom sync (${rows[0]!.prefix})`);
    expect(calls[0]!.subject).toBe("GET /desk/api/articles");
    const created = await db
      .selectFrom("desk_audit")
      .selectAll()
      .where("action", "=", "api-key.create")
      .where("subject", "like", `%${rows[0]!.prefix}%`)
      .execute();
    expect(created.map((row) => row.actor)).toEqual(["command line"]);

    await expect(staffCli(["add-key", "--role", "editor"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--name is required"),
    });
  });

  it("answers 401 for a missing, malformed, unknown or revoked key (cookies never count), and 403 for a key whose roles may not", async () => {
    const admin = await staffMember(["admin"]);
    const url = `${server.url}/desk/api/articles`;
    const { key, apiKey } = await createApiKey(db, COMMAND_LINE, "Shop sync", ["store"], new Date());
    const forbidden = await fetch(url, { headers: bearer(key) });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { code: string }).code).toBe("forbidden");

    const { key: editorKey, apiKey: editor } = await createApiKey(db, COMMAND_LINE, "Editor tool", ["editor"], new Date());
    const wrongSecret = `${editor.prefix}_${"A".repeat(43)}`;
    const refused: [string, RequestInit][] = [
      ["no key", {}],
      ["no key, an admin's desk cookies", { headers: { Cookie: admin.reader.cookieHeader() } }],
      ["not Bearer", { headers: { Authorization: `Basic ${editorKey}` } }],
      ["malformed", { headers: bearer("not-a-key") }],
      ["wrong secret", { headers: bearer(wrongSecret) }],
    ];
    for (const [label, init] of refused) {
      const res = await fetch(url, init);
      expect(res.status, label).toBe(401);
      expect(res.headers.get("www-authenticate"), label).toMatch(/^Bearer/);
      expect(res.headers.get("content-type"), label).toMatch(/^application\/json/);
    }
    // Another site's origin is no matter to a cookie-less call.
    const foreign = await fetch(url, {
      headers: { ...bearer(editorKey), Origin: "https://tools.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();

    // The admin revokes the editor's key in the desk, with a plain form.
    const keys = await admin.reader.page("/desk/api-keys");
    const row = keys("tbody tr").filter((_, el) => keys(el).text().includes(editor.prefix));
    expect(row.find("td[data-label='Last used']").text()).not.toBe("Never");
    expect(row.find("input[name=keyId]").attr("value")).toBe(editor.id);
    const revoke = await admin.reader.request("/desk/api-keys", { form: { intent: "revoke", keyId: editor.id } });
    expect(revoke.status).toBe(303);
    expect(revoke.headers.get("location")).toBe("/desk/api-keys?revoked=1");
    const after = await admin.reader.page("/desk/api-keys?revoked=1");
    expect(after("[role=status]").text()).toContain("Key revoked.");
    expect(
      after("tbody tr")
        .filter((_, el) => after(el).text().includes(editor.prefix))
        .find("td[data-label=Status]")
        .text(),
    ).toMatch(/^Revoked /);
    const gone = await fetch(url, { headers: bearer(editorKey) });
    expect(gone.status).toBe(401);
    expect(((await gone.json()) as { code: string }).code).toBe("invalid_key");
    const again = await admin.reader.request("/desk/api-keys", { form: { intent: "revoke", keyId: editor.id } });
    expect(again.status).toBe(409);

    const audit = await db.selectFrom("desk_audit").selectAll().where("subject", "like", `%${editor.prefix}%`).execute();
    expect(audit.filter((r) => r.action === "api-key.revoke").map((r) => r.actor)).toEqual([admin.email]);
    const refusedCall = await db.selectFrom("desk_audit").selectAll().where("actor_id", "=", apiKey.id).execute();
    expect(refusedCall.map((r) => [r.action, JSON.parse(r.after!)])).toEqual([["api.call", { query: "", status: 403 }]]);
  });
});
