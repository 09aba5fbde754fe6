import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "~/app/lib/api/catalogue";
import { actionTargets, type ActionTarget } from "~/tests/fuzz/actions";
import { apiOperations, fuzzOperation, loadApiDocument, operationName, type ApiOperation } from "~/tests/fuzz/api";
import { fuzzTarget } from "~/tests/fuzz/engine";
import { integrity, ownerData, prepareWorld, type World } from "~/tests/fuzz/world";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { selectFromServer } from "~/tests/helpers/server-db";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The bounded fuzz run: a fixed-seed sample of hostile bodies for every state-changing action,
// and of hostile calls to every operation of the service API's document (the long run is `npm
// run fuzz`). Reader B and guests send them, aiming at reader A's ids, and an admin inside the
// desk sends the desk's forms and calls the Admin API with a key; every answer must be below 500
// (and, from the API, one its document lists), and A's data and the database file come through
// unchanged.

const BODIES_PER_ACTION = 20;
// Ten calls an operation in CI (about 700 in all); `npm run fuzz` sends a thousand to each.
const CALLS_PER_OPERATION = 10;
const SEED = 20_261_125;

let server: RunningServer;
let world: World;
let before: Awaited<ReturnType<typeof ownerData>>;
let database: IsolatedConnection;
let operations: ApiOperation[];

beforeAll(async () => {
  database = await isolatedConnection("fuz");
  server = await startBuiltServer(
    {
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "100000",
    },
    "production",
    database,
  );
  world = await prepareWorld(server.url, database);
  before = await ownerData(world);
  operations = apiOperations(await loadApiDocument(server.url));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await database.drop();
});

describe("text the databases cannot store", () => {
  it("refuses a form holding a NUL byte with a 400, storing nothing", async () => {
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
    const search = await fetch(`${server.url}/search?q=%00`);
    expect(search.status).toBe(200);
    expect((await fetch(`${server.url}/order/ord_%00`, { redirect: "manual" })).status).toBe(404);
  });
});

describe("hostile posts to every action", () => {
  // The targets need the world's ids, which exist only after beforeAll: describe them by name.
  const names = actionTargets(placeholderWorld()).map((t) => t.name);
  it.each(names)(
    "%s: every answer is below 500",
    async (name) => {
      const target = actionTargets(world).find((t) => t.name === name) as ActionTarget;
      const tally = await fuzzTarget(world, target, { runs: BODIES_PER_ACTION, seed: SEED + names.indexOf(name) });
      expect(tally.bodies).toBe(BODIES_PER_ACTION);
      expect(tally.failures, server.errors().slice(-2000)).toEqual([]);
    },
    60_000,
  );
});

describe("hostile calls to every operation of the service API", () => {
  // The operations are read from the published document once the server is up; the catalogue
  // it is generated from names them for the test list.
  const names = ENDPOINTS.map((e) => operationName(e.method, e.path));

  it("calls every operation the document lists", () => {
    expect(operations.map((o) => o.name).sort()).toEqual([...names].sort());
  });

  it.each(names)(
    "%s: every answer is one the document lists, an error as JSON { code, message }",
    async (name) => {
      const operation = operations.find((o) => o.name === name) as ApiOperation;
      const tally = await fuzzOperation(world, operation, { runs: CALLS_PER_OPERATION, seed: SEED + names.indexOf(name) });
      expect(tally.bodies).toBe(CALLS_PER_OPERATION);
      expect(tally.failures, server.errors().slice(-2000)).toEqual([]);
    },
    60_000,
  );
});

describe("after the hostile posts and calls", () => {
  it("leaves reader A's account, cart, library, notes, gifts, orders and subscription as they were", async () => {
    expect(await ownerData(world)).toEqual(before);
    expect(await integrity(world)).toBe("ok");
  });

  it("reached the code behind the desk's forms and the Admin API's checks, as the audit log shows", async () => {
    const rows = await selectFromServer<{ actor: string; action: string; after: string | null }>(
      database,
      "SELECT actor, action, after FROM desk_audit WHERE actor = ? OR actor LIKE ?",
      [world.staff.email, "API key Fuzz admin %"],
    );
    const actions = new Set(rows.map((row) => row.action));
    for (const action of ["recovery-codes.renew", "api-key.revoke", "api.call", "author.create", "topic.create"])
      expect(actions, action).toContain(action);
    const statuses = new Set(
      rows.filter((row) => row.action === "api.call").map((row) => (JSON.parse(row.after!) as { status: number }).status),
    );
    // The admin's key is let through (no 401 or 403) to answers of its own: found or not, saved or stale.
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400]));
    for (const status of statuses) expect([200, 201, 400, 404, 409, 413, 422], String(status)).toContain(status);
    // The Admin API's writes got past their checks to the editorial domain, under the key.
    expect([...actions].filter((action) => action.startsWith("article."))).not.toEqual([]);
  });
});

/** Ids only for listing the targets' names before the server is up. */
function placeholderWorld(): World {
  const ids = {
    userId: "",
    email: "",
    cartLineId: "",
    folderId: "",
    folderSlug: "",
    itemId: "",
    noteId: "",
    giftId: "",
    orderId: "",
    orderKey: "",
    sandboxId: "",
    checkoutId: "",
  };
  return {
    baseUrl: "",
    database,
    article: { path: "/", id: "1" },
    owner: ids,
    hostile: Object.assign(Object.create(null), { ids }),
    guest: Object.create(null),
    staff: Object.create(null),
    keys: { admin: "", revocableId: "" },
    deskArticle: { id: "" },
    draft: { id: "", revisionId: "", authors: "", topics: "" },
    issue: { id: "" },
  } as World;
}
