import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connect } from "~/server/db/connection";
import { meterPeriod } from "~/server/paywall/meter";
import { articlePath } from "~/shared/urls";
import { freePort } from "~/tests/helpers/free-port";
import { Reader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

// Readers open articles, many pages at once, while the server is killed (SIGKILL) twice and
// started again on the same database; a page cut off is asked for again once the server is back,
// as a reader reloads. Each page's reads are written before it is answered (ADR 094), so none is
// lost: every page answered in full is on Most Popular, every article opened is in its reader's
// history, and the meter holds exactly what it let through, its limits and the address ceiling
// exact. A page cut off after its statement committed counts once more on Most Popular, at most.

const GUESTS = 8;
const REGISTERED = 6;
const SUBSCRIBERS = 2;
const ARTICLES = 12;
/** Pages each reader has open at once. */
const LANES = 3;
const KILLS = 2;
const GUEST_LIMIT = 4;
const REGISTERED_LIMIT = 8;
const CEILING = 20;

/** The server went away under a request. */
class Interrupted extends Error {}

describe(`the server killed while readers open articles (${dialectName})`, () => {
  it("loses no read on Most Popular, in history or on the meter, and holds the meter's limits", async () => {
    const connection = await isolatedConnection("reads-kill");
    const port = await freePort();
    const env = {
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      METER_GUEST_LIMIT: String(GUEST_LIMIT),
      METER_REGISTERED_LIMIT: String(REGISTERED_LIMIT),
      // Every guest here comes from 127.0.0.1: one network, whatever their cookies.
      METER_ADDRESS_CEILING: String(CEILING),
    };
    let server: RunningServer = await startBuiltServer(env, "production", connection);
    const db = connect(connection);
    try {
      const rows = await db
        .selectFrom("article")
        .select(["id", "year", "month", "slug"])
        .where("tier", "=", "article")
        .where("id", "not in", db.selectFrom("stream_entry").select("article_id").where("stream", "=", "ascend"))
        .orderBy("id")
        .limit(ARTICLES)
        .execute();
      const articles = rows.map((r) => ({ id: r.id, path: articlePath(r) }));
      const readsOf = async () =>
        new Map(
          (
            await db
              .selectFrom("article_read_day")
              .select(["article_id", sql<number | string>`sum(reads)`.as("reads")])
              .where(
                "article_id",
                "in",
                articles.map((a) => a.id),
              )
              .groupBy("article_id")
              .execute()
          ).map((r) => [r.article_id, Number(r.reads)]),
        );
      const popularBefore = await readsOf();

      const guests = Array.from({ length: GUESTS }, () => new Reader(server.url));
      const userIds = new Map<Reader, string>();
      const signedIn = async (n: number) => {
        const reader = new Reader(server.url);
        const email = `reads-kill-${n}.${process.pid}@example.org`;
        const res = await reader.request("/register", {
          form: { firstName: "Kill", lastName: "Reader", emailAddress: email, password: "Lantern5!quay" },
        });
        expect(res.status).toBe(303);
        userIds.set(reader, (await db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id);
        return reader;
      };
      const registered = await Promise.all(Array.from({ length: REGISTERED }, (_, n) => signedIn(n)));
      const subscribers = await Promise.all(Array.from({ length: SUBSCRIBERS }, async (_, n) => subscribe(await signedIn(REGISTERED + n))));

      const served: { reader: Reader; articleId: number; full: boolean }[] = [];
      const cutOff = new Map<number, number>();
      let answered = 0;
      let nextKillAt = 120;
      let crashNow!: () => void;
      let crash = new Promise<void>((resolve) => (crashNow = resolve));
      let serverBack = Promise.resolve();
      let kills = 0;

      const answer = async (reader: Reader, path: string): Promise<string> => {
        const res = await reader.request(path);
        if (res.status >= 500) throw new Interrupted(`${path}: ${res.status}`);
        const location = res.headers.get("location") ?? "";
        if (res.status === 302 && location.includes("cookie-check=")) return answer(reader, location);
        expect(res.status, path).toBe(200);
        return res.text();
      };
      /** Opens the page until it is answered, as a reader reloads a page that failed. */
      const open = async (reader: Reader, article: (typeof articles)[number]) => {
        for (let attempt = 0; ; attempt++) {
          try {
            const html = await answer(reader, article.path);
            served.push({ reader, articleId: article.id, full: !/data-wall="/.test(html) });
            if (++answered === nextKillAt) crashNow();
            return;
          } catch (error) {
            const serverGone =
              error instanceof Interrupted || (error instanceof TypeError && /^(fetch failed|terminated)$/.test(error.message));
            if (kills === 0 || !serverGone || attempt > 2 * KILLS) {
              throw new Error(`${article.path}: attempt ${attempt + 1}, after ${kills} kill(s), ${answered} pages answered`, {
                cause: error,
              });
            }
            cutOff.set(article.id, (cutOff.get(article.id) ?? 0) + 1);
            await serverBack;
          }
        }
      };
      const readAll = async (reader: Reader) => {
        // The first page gets a guest their visitor cookie; then LANES pages at a time, each article twice.
        await open(reader, articles[0]!);
        const pages = [...articles.slice(1), ...articles];
        await Promise.all(
          Array.from({ length: LANES }, async (_, lane) => {
            for (let i = lane; i < pages.length; i += LANES) await open(reader, pages[i]!);
          }),
        );
      };
      const readers = [...guests, ...registered, ...subscribers];
      const reading = Promise.all(readers.map(readAll));

      for (let k = 0; k < KILLS; k++) {
        await Promise.race([crash, reading]);
        let back!: () => void;
        serverBack = new Promise<void>((resolve) => (back = resolve));
        kills += 1;
        server.child.kill("SIGKILL");
        await new Promise((resolve) => server.child.once("exit", resolve));
        server = await startBuiltServer(env, "production", connection);
        crash = new Promise<void>((resolve) => (crashNow = resolve));
        nextKillAt = answered + 120;
        back();
      }
      await reading;

      const totalCutOff = [...cutOff.values()].reduce((a, b) => a + b, 0);
      expect(totalCutOff).toBeGreaterThan(0);
      expect(served).toHaveLength(readers.length * 2 * ARTICLES);
      const opened = (reader: Reader) => new Set(served.filter((s) => s.reader === reader && s.full).map((s) => s.articleId));

      // The meter: exactly the articles each metered reader was let read, within the limits and the ceiling.
      const meter = await db
        .selectFrom("meter_read")
        .select(["meter_key", "article_id", "client_address"])
        .where("period", "=", meterPeriod(new Date()))
        .execute();
      // A signed cookie's value is its JSON in base64, a dot, and the signature.
      const visitorOf = (reader: Reader) =>
        `v:${JSON.parse(Buffer.from(decodeURIComponent(reader.cookie("mr_visitor")!).split(".")[0]!, "base64").toString())}`;
      const onMeter = (key: string) => new Set(meter.filter((m) => m.meter_key === key).map((m) => m.article_id));
      for (const guest of guests) {
        expect(onMeter(visitorOf(guest))).toEqual(opened(guest));
        expect(opened(guest).size).toBeLessThanOrEqual(GUEST_LIMIT);
      }
      expect(meter.filter((m) => m.client_address !== null)).toHaveLength(CEILING);
      for (const reader of registered) {
        expect(onMeter(`u:${userIds.get(reader)}`)).toEqual(opened(reader));
        expect(opened(reader).size).toBe(REGISTERED_LIMIT);
      }
      for (const reader of subscribers) expect(opened(reader).size).toBe(ARTICLES);

      // Most Popular: every page answered in full, and at most the pages cut off besides.
      const popularAfter = await readsOf();
      for (const article of articles) {
        const full = served.filter((s) => s.articleId === article.id && s.full).length;
        const added = (popularAfter.get(article.id) ?? 0) - (popularBefore.get(article.id) ?? 0);
        expect(added, article.path).toBeGreaterThanOrEqual(full);
        expect(added, article.path).toBeLessThanOrEqual(full + (cutOff.get(article.id) ?? 0));
      }

      // History: every article each signed-in reader opened, walled or not.
      for (const reader of [...registered, ...subscribers]) {
        const history = await db
          .selectFrom("view_history")
          .select("content_id")
          .where("user_id", "=", userIds.get(reader)!)
          .where("content_type", "=", "article")
          .execute();
        expect(new Set(history.map((h) => h.content_id))).toEqual(new Set(articles.map((a) => a.id)));
      }

      // The funnel: each reader who met a wall.
      const walls = await db.selectFrom("wall_view").select("viewer").execute();
      const walled = readers.filter((reader) => served.some((s) => s.reader === reader && !s.full));
      expect(new Set(walls.map((w) => w.viewer))).toEqual(
        new Set(walled.map((reader) => (userIds.has(reader) ? `u:${userIds.get(reader)}` : visitorOf(reader)))),
      );
      console.log(
        `${KILLS} SIGKILLs while ${readers.length} readers opened ${served.length} pages (${LANES} at a time each): ` +
          `${totalCutOff} page(s) cut off and asked again; ${served.filter((s) => s.full).length} answered in full, ` +
          `${[...popularAfter.values()].reduce((a, b) => a + b, 0) - [...popularBefore.values()].reduce((a, b) => a + b, 0)} counted on Most Popular`,
      );
    } finally {
      await db.destroy();
      await server.stop();
      await connection.drop();
    }
  }, 300_000);
});
