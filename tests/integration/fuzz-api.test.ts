import { beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "~/app/lib/api/catalogue";
import { apiOperations, fuzzOperation, loadApiDocument, operationName, type ApiOperation } from "~/tests/fuzz/api";
import { CALLS_PER_OPERATION, expectOwnerUntouched, ownerData, SEED, staffAuditRows, useFuzzRun } from "~/tests/fuzz/bounded";

// Hostile calls to every operation of the service API's document, the Admin API's among them
// (tests/fuzz/bounded.ts): every answer must be one the document lists, an error as JSON, and
// reader A's data and the database file come through unchanged.

const fuzzRun = useFuzzRun("fzp");
let before: Awaited<ReturnType<typeof ownerData>>;
let operations: ApiOperation[];
beforeAll(async () => {
  before = await ownerData(fuzzRun().world);
  operations = apiOperations(await loadApiDocument(fuzzRun().server.url));
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
      const { world, server } = fuzzRun();
      const operation = operations.find((o) => o.name === name) as ApiOperation;
      const tally = await fuzzOperation(world, operation, { runs: CALLS_PER_OPERATION, seed: SEED + names.indexOf(name) });
      expect(tally.bodies).toBe(CALLS_PER_OPERATION);
      expect(tally.failures, server.errors().slice(-2000)).toEqual([]);
    },
    60_000,
  );
});

describe("after the hostile calls", () => {
  it("leaves reader A's account, cart, library, notes, gifts, orders and subscription as they were", () =>
    expectOwnerUntouched(fuzzRun(), before));

  it("reached the Admin API's checks, as the audit log shows", async () => {
    const rows = await staffAuditRows(fuzzRun());
    const statuses = new Set(
      rows.filter((row) => row.action === "api.call").map((row) => (JSON.parse(row.after!) as { status: number }).status),
    );
    // The admin's key is let through (no 401 or 403) to answers of its own: found or not, saved or stale.
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400]));
    for (const status of statuses) expect([200, 201, 400, 404, 409, 413, 422], String(status)).toContain(status);
    // The Admin API's writes got past their checks to the editorial domain, under the key.
    const actions = rows.map((row) => row.action);
    expect(actions.filter((action) => action.startsWith("article."))).not.toEqual([]);
    for (const action of ["author.create", "topic.create"]) expect(actions, action).toContain(action);
  });
});
