import { beforeAll, describe, expect, it } from "vitest";
import { actionNames, expectOwnerUntouched, fuzzAction, ownerData, staffAuditRows, useFuzzRun } from "~/tests/fuzz/bounded";

// Hostile posts to every desk form (tests/fuzz/bounded.ts): an admin inside the desk sends them,
// and reader B and guests, who must meet the 404. Every answer must be below 500, and reader A's
// data and the database file come through unchanged.

const fuzzRun = useFuzzRun("fzd");
let before: Awaited<ReturnType<typeof ownerData>>;
beforeAll(async () => {
  before = await ownerData(fuzzRun().world);
});

describe("hostile posts to every desk form", () => {
  it.each(actionNames((name) => name.startsWith("desk")))("%s: every answer is below 500", (name) => fuzzAction(fuzzRun(), name), 60_000);
});

describe("after the hostile posts", () => {
  it("leaves reader A's account, cart, library, notes, gifts, orders and subscription as they were", () =>
    expectOwnerUntouched(fuzzRun(), before));

  it("reached the code behind the desk's forms, as the audit log shows", async () => {
    const actions = new Set((await staffAuditRows(fuzzRun())).map((row) => row.action));
    for (const action of ["recovery-codes.renew", "api-key.revoke"]) expect(actions, action).toContain(action);
  });
});
