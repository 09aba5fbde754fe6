import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Scale-out: two instances of the production server, started at the same moment on one empty
// database, as a deploy behind a load balancer starts them. On PostgreSQL each has a data
// folder of its own (as on two machines); SQLite's instances share the folder, which holds the
// database. Both are given the same secrets, as the README says they must be.
const SECRETS = { SESSION_SECRET: "s".repeat(48), PAYMENT_WEBHOOK_SECRET: "w".repeat(48) };

let database: IsolatedConnection;
let db: Database;
let a: RunningServer;
let b: RunningServer;
const otherFolders: string[] = [];

beforeAll(async () => {
  database = await isolatedConnection("pair", { empty: true });
  const folderFor = () => {
    if (dialectName === "sqlite") return database.dataDir;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "instance-"));
    otherFolders.push(folder);
    return folder;
  };
  const env = () => ({ ...SECRETS, DATA_DIR: folderFor() });
  [a, b] = await Promise.all([startBuiltServer(env(), "production", database), startBuiltServer(env(), "production", database)]);
  db = connect(database);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.destroy();
  await database?.drop();
  for (const folder of otherFolders) fs.rmSync(folder, { recursive: true, force: true });
});

describe(`two instances started together on one empty ${dialectName} database`, () => {
  it("migrate and seed it exactly once", async () => {
    const migrations = await db
      .selectFrom("kysely_migration" as never)
      .select("name" as never)
      .execute();
    const names = migrations.map((m) => (m as { name: string }).name);
    expect(names.length).toBeGreaterThan(10);
    expect(new Set(names).size).toBe(names.length);
    const seeded = await db.selectFrom("seed_state").select("name").orderBy("name").execute();
    expect(seeded.map((s) => s.name)).toEqual([
      "accounts",
      "content",
      "courses",
      "product-companions",
      "product-texts",
      "search-index",
      "store-offers",
    ]);
    const slugs = await db.selectFrom("article").select("slug").execute();
    expect(slugs.length).toBeGreaterThan(0);
    expect(new Set(slugs.map((s) => s.slug)).size).toBe(slugs.length);
  });

  it("share sessions: a reader signed in through one is signed in through the other, and signed out of both", async () => {
    const reader = await registeredReader(a.url);
    const session = reader.cookie("mr_session")!;
    const there = reader.at(b.url);
    expect((await there.request("/my-account")).status).toBe(200);
    expect((await there.request("/logout?return=/topics", { form: {} })).status).toBe(303);
    // The session ended on the server: the cookie as it was, sent to the first instance, is dead.
    const copied = new Reader(a.url);
    copied.setCookie("mr_session", session);
    const back = await copied.request("/my-account");
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toContain("sign-in");
  });

  it("share the meter: a guest reading through both is walled after as many articles as through one", async () => {
    const $ = await new Reader(a.url).page("/the-latest");
    const paths = [
      ...new Set(
        $("main article h3 a, main article h2 a")
          .map((_, link) => $(link).attr("href")!)
          .get(),
      ),
    ].slice(0, 12);
    expect(paths.length).toBeGreaterThanOrEqual(10);
    /** How many articles open before the first wall, reading in turn through the given instances. */
    const opensBeforeWall = async (instances: string[]) => {
      const guest = new Reader(instances[0]!);
      for (const [i, articlePath] of paths.entries()) {
        const $article = await guest.at(instances[i % instances.length]!).page(articlePath);
        if ($article("[data-wall]").length > 0) return i;
      }
      return paths.length;
    };
    const throughOne = await opensBeforeWall([a.url]);
    expect(throughOne).toBeLessThan(paths.length);
    expect(await opensBeforeWall([a.url, b.url])).toBe(throughOne);
  });

  it("share carts: a line added through one is in the cart through the other", async () => {
    const shopper = new Reader(a.url);
    const added = await shopper.request("/shopping-cart", {
      form: {
        intent: "add",
        productUrl: "/product/x/1002",
        productId: "1002",
        format: "Kindle",
        type: "Digital",
        quantity: "1",
        referral: "03069",
      },
    });
    expect(added.status).toBe(303);
    const $cart = await shopper.at(b.url).page("/shopping-cart");
    expect($cart("section[aria-labelledby=digital-items] tbody tr")).toHaveLength(1);
  });
});
