import { afterAll, beforeAll, expect } from "vitest";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { selectFromServer } from "~/tests/helpers/server-db";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";
import { actionTargets, type ActionTarget } from "./actions";
import { fuzzTarget } from "./engine";
import { integrity, ownerData, prepareWorld, type World } from "./world";

// The bounded fuzz run (tests/integration/fuzz-*.test.ts): a fixed-seed sample of hostile bodies
// for every state-changing action, and of hostile calls to every operation of the service API's
// document (the long run is `npm run fuzz`). It is split in three files, each with a server and a
// world of its own, so the run's three parts go side by side rather than one after another.

export const BODIES_PER_ACTION = 20;
// Ten calls an operation in CI (about 700 in all); `npm run fuzz` sends a thousand to each.
export const CALLS_PER_OPERATION = 10;
export const SEED = 20_261_125;

export interface FuzzRun {
  readonly server: RunningServer;
  readonly world: World;
  readonly database: IsolatedConnection;
}

/**
 * Starts the production server on a database of the file's own and prepares the fuzz world before
 * the file's tests, and stops both after them. Answers the run once beforeAll has made it.
 */
export function useFuzzRun(name: string): () => FuzzRun {
  let run: FuzzRun | undefined;
  let database: IsolatedConnection | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    database = await isolatedConnection(name);
    server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "100000" }, "production", database);
    run = { server, database, world: await prepareWorld(server.url, database) };
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });
  return () => {
    if (!run) throw new Error("the fuzz run is made in beforeAll");
    return run;
  };
}

/** The names of the action targets `pick` keeps; listed before the server is up, from placeholder ids. */
export function actionNames(pick: (name: string) => boolean): string[] {
  return actionTargets(placeholderWorld())
    .map((t) => t.name)
    .filter(pick);
}

/** Sends the target's hostile bodies; every answer must be below 500. */
export async function fuzzAction(run: FuzzRun, name: string): Promise<void> {
  const target = actionTargets(run.world).find((t) => t.name === name) as ActionTarget;
  const seed = SEED + actionNames(() => true).indexOf(name);
  const tally = await fuzzTarget(run.world, target, { runs: BODIES_PER_ACTION, seed });
  expect(tally.bodies).toBe(BODIES_PER_ACTION);
  expect(tally.failures, run.server.errors().slice(-2000)).toEqual([]);
}

/** Reader A's data and the database file came through the hostile traffic unchanged. */
export async function expectOwnerUntouched(run: FuzzRun, before: unknown): Promise<void> {
  expect(await ownerData(run.world)).toEqual(before);
  expect(await integrity(run.world)).toBe("ok");
}

export { ownerData };

/** The desk audit rows written under the fuzz admin's name or key. */
export function staffAuditRows(run: FuzzRun) {
  return selectFromServer<{ actor: string; action: string; after: string | null }>(
    run.database,
    "SELECT actor, action, after FROM desk_audit WHERE actor = ? OR actor LIKE ?",
    [run.world.staff.email, "API key Fuzz admin %"],
  );
}

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
    orderNumber: "",
    orderKey: "",
    sandboxId: "",
    checkoutId: "",
  };
  return {
    baseUrl: "",
    database: undefined as never,
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
