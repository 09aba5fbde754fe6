// Mixed load: npm run build && npm run bench:load
//   BENCH_DATABASES=sqlite,postgres (default both), BENCH_SECONDS (default 60), BENCH_CONNECTIONS
//   (default 64), BENCH_POSTGRES_URL (where the throwaway PostgreSQL database is made).
// For each database: the production server (one process per core) on a freshly seeded database,
// then BENCH_CONNECTIONS readers at once for BENCH_SECONDS, each doing one thing after another:
// guests reading articles with their cookies kept, stream and topic pages, searches, sign-ins,
// add-to-cart into hundreds of guest carts, and a few checkouts paid through the sandbox provider.
// A third of the page reads (articles, streams, searches) are a signed-in registered reader's.
// Every request sends a desktop browser's User-Agent (bench/browser.ts).
// Prints req/s, p50/p99 and the share the page cache answered whole, per kind, guests' and
// signed-in readers' page reads apart, then errors and non-2xx answers by status; then checks
// that nothing was lost: every add-to-cart that answered success is in its cart, and every
// checkout that was paid is exactly one paid order. Exits 1 on an error, an answer of 500 or above, or a
// loss. Requests go to 127.0.0.1 only; the run is bounded in time and stops by itself.
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "kysely";
import { connect, type Database } from "~/server/db/connection";
import { articlePath, topicPath } from "~/shared/urls";
import { addToCartForm, placeOrderForm, shippedItems, type AnswerCheck } from "~/tests/helpers/checkout-flow";
import { send } from "./browser";
import { percentile } from "./latency";
import { ms, table } from "./table";
import { cleanUp, createDatabase, ENGINE_NAMES, seed, startServer, type Engine } from "./search-setup";

const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",").map((e) => e.trim()) as Engine[];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PASSWORD = "Lantern5!quay";
/** How often each kind is chosen, out of 100. */
// Sign-ins are few, as on a real site (each hashes a password: about 11 ms of CPU, ADR 051).
const MIX = { article: 42, stream: 20, search: 10, signIn: 0.5, addToCart: 26, checkout: 1.5 } as const;
type Kind = keyof typeof MIX;
/** Kinds whose answers are page reads (the p99 target applies to them). */
const PAGE_READS: Kind[] = ["article", "stream", "search"];
/** The share of page reads made by a signed-in reader (each connection's shopper, a registered reader). */
const SIGNED_IN_SHARE = 1 / 3;
/** What an answer is counted under: its kind, and for a signed-in reader's page read, that too. */
type Label = Kind | `${Kind}, signed in`;
/** A guest starts a new cart after this many adds, so the run fills hundreds of carts. */
const ADDS_PER_CART = 6;

/** A browser: its cookies, same-site form posts, no redirects followed; every answer timed under a kind. */
class Browser {
  private cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    /** Where its answers are counted (set again once an account's set-up requests are done). */
    public stats: Stats,
  ) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request(kind: Label, path: string, form?: Record<string, string>): Promise<Response> {
    const started = performance.now();
    const res = await send(this.base + path, {
      method: form ? "POST" : "GET",
      headers: {
        Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(form ? { "Content-Type": "application/x-www-form-urlencoded", Origin: this.base } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    }).catch((error: unknown) => {
      this.stats.error(kind, error);
      throw error;
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      if (/Max-Age=0/i.test(header)) this.cookies.delete(pair!.slice(0, at));
      else this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    this.stats.answer(kind, res.status, performance.now() - started, res.headers.get("x-page-cache") === "hit");
    return res;
  }
}

class Stats {
  readonly times = new Map<Label, number[]>();
  /** Answers the guest-page cache gave whole (X-Page-Cache: hit), by kind. */
  readonly hits = new Map<Label, number>();
  readonly statuses = new Map<string, number>();
  readonly errors: string[] = [];
  /** Errors already counted where they happened (a request that failed). */
  readonly counted = new WeakSet<object>();
  answer(kind: Label, status: number, ms: number, hit: boolean) {
    if (status < 200 || status >= 400) this.statuses.set(`${kind} ${status}`, (this.statuses.get(`${kind} ${status}`) ?? 0) + 1);
    else (this.times.get(kind) ?? this.times.set(kind, []).get(kind)!).push(ms);
    if (hit) this.hits.set(kind, (this.hits.get(kind) ?? 0) + 1);
  }
  error(kind: Label, error: unknown) {
    if (error instanceof Error) this.counted.add(error);
    this.errors.push(
      `${kind}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
    );
  }
}

const expectStatus =
  (kind: Kind): AnswerCheck =>
  async (res, status, step) => {
    if (res.status !== status) throw new Error(`${kind}: ${step} answered ${res.status}, expected ${status}`);
    return res;
  };

function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)]!;
}

function chooseKind(): Kind {
  let roll = Math.random() * 100;
  for (const [kind, weight] of Object.entries(MIX) as [Kind, number][]) if ((roll -= weight) < 0) return kind;
  return "article";
}

/** The cart id inside the signed guest cart cookie (Remix's: base64 of the JSON value, a dot, the signature). */
function cartIdOf(cookie: string): string {
  const value = decodeURIComponent(cookie);
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as string;
}

async function measure(engine: Engine) {
  const database = await createDatabase(engine);
  console.error(`${ENGINE_NAMES[engine]}: seeding…`);
  await seed(database, 0);
  Object.assign(database.env, {
    // Every bench client comes from 127.0.0.1: per-address limits would count them all as one.
    RATE_LIMIT_PER_IP: "1000000",
    RATE_LIMIT_PER_ACCOUNT: "1000000",
    METER_ADDRESS_CEILING: "0",
    STORE_MAINTENANCE_WINDOW: "off",
    PAYMENT_PROVIDER: "sandbox",
    LOG_REQUESTS: "off",
  });
  const server = await startServer(database);
  const db: Database = connect(database.databaseUrl ? { databaseUrl: database.databaseUrl, dataDir: database.dataDir } : database);
  const stats = new Stats();
  try {
    const articles = (await db.selectFrom("article").select(["year", "month", "slug"]).execute()).map(articlePath);
    const topics = (await db.selectFrom("topic").select("slug").limit(30).execute()).map((t) => topicPath(t.slug));
    const streams = ["/", "/the-latest", "/big-ideas", "/magazine", "/video", "/podcasts", ...topics];
    const searches = ["strategy", "leadership", "supply chain", "pricing", "board", "innovation", "customers", '"remote work"'];
    const items = await shippedItems(db);
    // Accounts for sign-ins, and one shopper per connection for checkouts (a cart each).
    const register = async (email: string) => {
      const browser = new Browser(server.base, new Stats());
      const res = await browser.request("signIn", "/register", {
        firstName: "Load",
        lastName: "Reader",
        emailAddress: email,
        password: PASSWORD,
      });
      if (res.status !== 303) throw new Error(`registering ${email} answered ${res.status}`);
      return browser;
    };
    const readers = Array.from({ length: 8 }, (_, i) => `reader${i}@load.example`);
    await Promise.all(readers.map(register));
    const shoppers = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => register(`shopper${i}@load.example`)));
    for (const shopper of shoppers) shopper.stats = stats;

    /** Guest carts and what answered success going into each: availability id → quantity. */
    const carts: { browser: Browser; added: Map<number, number> }[] = [];
    const paidCheckouts = new Map<string, number>();
    // This process's own delays show in every time it measures: they are printed beside them.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const cpuBefore = process.cpuUsage();
    const until = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, n) => {
        let guest = new Browser(server.base, stats);
        let cart = { browser: new Browser(server.base, stats), added: new Map<number, number>() };
        carts.push(cart);
        while (performance.now() < until) {
          const kind = chooseKind();
          const signedIn = PAGE_READS.includes(kind) && Math.random() < SIGNED_IN_SHARE;
          const reader = signedIn ? shoppers[n]! : guest;
          const label: Label = signedIn ? `${kind}, signed in` : kind;
          try {
            if (kind === "article") {
              const res = await reader.request(label, pick(articles));
              const location = res.headers.get("location");
              if (res.status === 302 && location) await reader.request(label, location);
              // A guest clears their cookies now and then: a new visitor.
              if (!signedIn && Math.random() < 0.05) guest = new Browser(server.base, stats);
            } else if (kind === "stream") {
              await reader.request(label, pick(streams));
            } else if (kind === "search") {
              await reader.request(label, `/search?q=${encodeURIComponent(pick(searches))}`);
            } else if (kind === "signIn") {
              await expectStatus(kind)(
                await new Browser(server.base, stats).request(kind, "/sign-in", { username: pick(readers), password: PASSWORD }),
                303,
                "POST /sign-in",
              );
            } else if (kind === "addToCart") {
              if (cart.added.size >= ADDS_PER_CART) {
                cart = { browser: new Browser(server.base, stats), added: new Map() };
                carts.push(cart);
              }
              const item = pick(items);
              const res = await cart.browser.request(kind, "/shopping-cart", addToCartForm(item));
              if (res.status === 303) cart.added.set(item.id, (cart.added.get(item.id) ?? 0) + 1);
            } else {
              const shopper = shoppers[n]!;
              const check = expectStatus(kind);
              await check(await shopper.request(kind, "/shopping-cart", addToCartForm(pick(items))), 303, "POST /shopping-cart");
              const form = await placeOrderForm({ request: (path, init) => shopper.request(kind, path, init?.form) }, check);
              if (!form) throw new Error("checkout: the cart was empty");
              const placed = await check(await shopper.request(kind, "/review-order", form), 303, "POST /review-order");
              const paid = await check(
                await shopper.request(kind, new URL(placed.headers.get("location")!).pathname, { cardNumber: "4242424242424242" }),
                303,
                "POST sandbox checkout",
              );
              await check(await shopper.request(kind, new URL(paid.headers.get("location")!).pathname), 200, "GET order");
              const email = `shopper${n}@load.example`;
              paidCheckouts.set(email, (paidCheckouts.get(email) ?? 0) + 1);
            }
          } catch (error) {
            if (!(error instanceof Error && stats.counted.has(error))) stats.errors.push(`${label}: ${String(error)}`);
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    lag.disable();
    const cpu = process.cpuUsage(cpuBefore);

    // Nothing lost: every add that answered success is in its cart; every paid checkout is one
    // paid order.
    let lostLines = 0;
    let cartsChecked = 0;
    for (const { browser, added } of carts) {
      const cookie = browser.cookie("mr_cart");
      if (!cookie || added.size === 0) continue;
      cartsChecked += 1;
      const lines = await db
        .selectFrom("cart_line")
        .select(["availability_id", "quantity"])
        .where("cart_id", "=", cartIdOf(cookie))
        .execute();
      const held = new Map(lines.map((l) => [l.availability_id, l.quantity]));
      for (const [id, quantity] of added) if ((held.get(id) ?? 0) !== quantity) lostLines += 1;
    }
    const paidOrders = await db
      .selectFrom("store_order")
      .select(["email", sql<number>`count(*)`.as("n")])
      .where("status", "=", "paid")
      .groupBy("email")
      .execute();
    const ordersOf = new Map(paidOrders.map((o) => [o.email, Number(o.n)]));
    const checkoutMismatches = [...new Set([...paidCheckouts.keys(), ...ordersOf.keys()])].filter(
      (email) => (paidCheckouts.get(email) ?? 0) !== (ordersOf.get(email) ?? 0),
    );
    const payments = await db
      .selectFrom("sandbox_payment")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "paid")
      .where("reference", "like", "ord_%")
      .executeTakeFirstOrThrow();
    return {
      engine,
      elapsed,
      stats,
      /** The load generator's event-loop delay, p50 and p99, ms. */
      lag: [lag.percentile(50) / 1e6, lag.percentile(99) / 1e6],
      /** The share of the machine's cores this load generator used. */
      cpuShare: (cpu.user + cpu.system) / 1e6 / elapsed / os.cpus().length,
      carts: cartsChecked,
      lostLines,
      checkouts: [...paidCheckouts.values()].reduce((a, b) => a + b, 0),
      paidOrders: [...ordersOf.values()].reduce((a, b) => a + b, 0),
      paidPayments: Number(payments.n),
      checkoutMismatches,
      serverErrors: server.errors(),
    };
  } finally {
    await db.destroy();
    await server.stop();
  }
}

function report(r: Awaited<ReturnType<typeof measure>>): boolean {
  const row = (name: string, times: number[], hits?: number) => {
    const sorted = [...times].sort((a, b) => a - b);
    return [
      `  ${name}`,
      String(sorted.length),
      (sorted.length / r.elapsed).toFixed(1),
      ms(percentile(sorted, 50)),
      ms(percentile(sorted, 99)),
      hits === undefined || sorted.length === 0 ? "" : `${Math.round((100 * hits) / sorted.length)} %`,
    ];
  };
  const labels = (Object.keys(MIX) as Kind[]).flatMap((kind): Label[] =>
    PAGE_READS.includes(kind) ? [kind, `${kind}, signed in`] : [kind],
  );
  const signedIn = PAGE_READS.map((kind) => `${kind}, signed in` as const);
  const reads = (of: Label[]) => of.flatMap((label) => r.stats.times.get(label) ?? []);
  const serverErrors = [...r.stats.statuses].filter(([key]) => Number(key.split(" ").pop()) >= 500);
  console.log(`\n${ENGINE_NAMES[r.engine]}: ${CONNECTIONS} connections for ${r.elapsed.toFixed(1)} s`);
  console.log(
    table([
      ["kind", "answers", "req/s", "p50 ms", "p99 ms", "page cache hits"],
      ...labels.map((label) => row(label, r.stats.times.get(label) ?? [], r.stats.hits.get(label) ?? 0)),
      row("all", [...r.stats.times.values()].flat()),
      row("page reads, guests", reads(PAGE_READS)),
      row("page reads, signed in", reads(signedIn)),
      row("page reads, all", reads([...PAGE_READS, ...signedIn])),
    ]),
  );
  console.log(`  target: page reads p99 ≤ 250 ms on a warm cache`);
  console.log(
    `  this load generator's own event-loop delay: p50 ${r.lag[0]!.toFixed(1)} ms, p99 ${r.lag[1]!.toFixed(1)} ms (part of every time above); it used ${(r.cpuShare * 100).toFixed(0)} % of the cores`,
  );
  console.log(
    `  errors: ${r.stats.errors.length}${r.stats.errors.length ? ` (${[...new Set(r.stats.errors)].slice(0, 5).join("; ")})` : ""}`,
  );
  console.log(
    `  answers outside 2xx/3xx: ${r.stats.statuses.size === 0 ? "none" : [...r.stats.statuses].map(([key, n]) => `${key}: ${n}`).join(", ")}`,
  );
  if (serverErrors.length > 0 && r.serverErrors) console.log(`  the server wrote to stderr, last:\n${r.serverErrors}`);
  console.log(`  carts checked ${r.carts}, add-to-cart successes missing from their cart: ${r.lostLines}`);
  console.log(
    `  checkouts paid ${r.checkouts}, paid orders ${r.paidOrders}, payments taken ${r.paidPayments}, shoppers whose counts differ: ${r.checkoutMismatches.length}`,
  );
  return (
    r.stats.errors.length === 0 &&
    serverErrors.length === 0 &&
    r.lostLines === 0 &&
    r.checkoutMismatches.length === 0 &&
    r.paidOrders === r.paidPayments
  );
}

async function main() {
  console.log(
    `Mixed load: ${CONNECTIONS} connections, ${SECONDS} s per database; mix ${Object.entries(MIX)
      .map(([k, v]) => `${k} ${v}%`)
      .join(
        ", ",
      )}; ${(SIGNED_IN_SHARE * 100).toFixed(0)}% of page reads signed in. ${os.cpus().length} cores, Node ${process.version}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}.`,
  );
  let ok = true;
  try {
    for (const engine of ENGINES) ok = report(await measure(engine)) && ok;
  } finally {
    await cleanUp();
  }
  console.log(ok ? "\nPassed: no errors, no answer of 500 or above, nothing lost." : "\nFailed: see above.");
  process.exit(ok ? 0 : 1);
}

void main().catch(async (error: unknown) => {
  console.error(error);
  await cleanUp();
  process.exit(1);
});
