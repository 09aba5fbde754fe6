import { beforeAll, describe, expect, it } from "vitest";
import { actionNames, expectOwnerUntouched, fuzzAction, ownerData, useFuzzRun } from "~/tests/fuzz/bounded";
import { selectFromServer } from "~/tests/helpers/server-db";

// Hostile posts to every reader's, shopper's and guest's action (tests/fuzz/bounded.ts): reader B
// and guests send them, aiming at reader A's ids. Every answer must be below 500, and A's data and
// the database file come through unchanged.

const fuzzRun = useFuzzRun("fza");
let before: Awaited<ReturnType<typeof ownerData>>;
beforeAll(async () => {
  before = await ownerData(fuzzRun().world);
});

describe("text the databases cannot store", () => {
  it("refuses a form holding a NUL byte with a 400, storing nothing", async () => {
    const { server, world, database } = fuzzRun();
    for (const fields of [
      "name=Nul%00one&description=",
      "name=Nul+two&description=Pricing%00review",
      "name=Nul+three&description=&%00=x",
    ]) {
      const res = await fetch(`${server.url}/my-library?index`, {
        method: "POST",
        headers: { Cookie: world.hostile.cookieHeader(), Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: `intent=create-folder&${fields}`,
        redirect: "manual",
      });
      expect(res.status, fields).toBe(400);
    }
    const folders = await selectFromServer<{ name: string }>(database, "SELECT name FROM library_folder WHERE user_id = ?", [
      world.hostile.ids.userId,
    ]);
    expect(folders.map((f) => f.name).filter((n) => n.startsWith("Nul"))).toEqual([]);
  });

  it("answers a search or a path holding a NUL byte as one that finds nothing", async () => {
    const { server } = fuzzRun();
    const search = await fetch(`${server.url}/search?q=%00`);
    expect(search.status).toBe(200);
    expect((await fetch(`${server.url}/order/ord_%00`, { redirect: "manual" })).status).toBe(404);
  });
});

describe("hostile posts to every reader's action", () => {
  it.each(actionNames((name) => !name.startsWith("desk")))("%s: every answer is below 500", (name) => fuzzAction(fuzzRun(), name), 60_000);
});

describe("after the hostile posts", () => {
  it("leaves reader A's account, cart, library, notes, gifts, orders and subscription as they were", () =>
    expectOwnerUntouched(fuzzRun(), before));
});
