import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { connect, type Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import { createArticle, listDeskArticles } from "~/server/desk/articles";
import { deskToDo } from "~/server/desk/to-do";
import { createSandboxProvider } from "~/server/payments/sandbox";
import { carrierFor } from "~/server/store/fulfilment/carriers";
import { orderListPage } from "~/server/store/fulfilment/desk-orders";
import { fulfilLines } from "~/server/store/fulfilment/shipments";
import type { ArticleFields } from "~/shared/article-fields";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { availabilities, insertOrder, payAtSandbox } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk home's counts of waiting work, on the real database: each is the total of the list it
// links to, moves when the work is done, and is shown only to the roles that may open that list.

let connection: IsolatedConnection;
let db: Database;
let editor: AuditActor;
let fields: ArticleFields;
const NOW = new Date("2026-04-14T10:00:00.000Z");

beforeAll(async () => {
  connection = await isolatedConnection("to-do");
  db = connect(connection);
  const user = (await insertUser(db, {
    firstName: "Ada",
    lastName: "Waiting",
    email: `to-do-${crypto.randomUUID()}@example.org`,
    password: "Editor9!desk",
    optIn: false,
  }))!;
  editor = { id: user.id, label: user.email };
  fields = await newArticleFields(db, { title: "Waiting on the Desk", slug: "waiting-on-the-desk", published: "2026-04-14" });
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await connection?.drop();
});

const counts = async (roles: Parameters<typeof deskToDo>[1]) =>
  Object.fromEntries((await deskToDo(db, roles)).map((item) => [item.path, item.count]));

describe(`the desk's waiting work (${dialectName})`, () => {
  it("counts drafts as the articles list filtered to drafts does, and a new draft adds one", async () => {
    const before = await counts(["editor"]);
    expect(before["/desk/articles?status=draft"]).toBe((await listDeskArticles(db, { status: "draft", page: 1, pageSize: 1 })).total);
    const created = await createArticle(db, editor, fields, NOW);
    expect(created.ok).toBe(true);
    const after = await counts(["editor"]);
    expect(after["/desk/articles?status=draft"]).toBe(before["/desk/articles?status=draft"]! + 1);
    expect(after["/desk/articles?status=scheduled"]).toBe(
      (await listDeskArticles(db, { status: "scheduled", page: 1, pageSize: 1 })).total,
    );
    // An editor does not work on orders.
    expect(Object.keys(after)).toEqual(["/desk/articles?status=draft", "/desk/articles?status=scheduled"]);
  });

  it("counts paid orders not yet fulfilled as the orders list does, until the order is sent", async () => {
    const sandbox = createSandboxProvider(db, { siteUrl: "https://meridian.test", webhookSecret: "whsec_test" });
    const pick = await availabilities(db);
    const before = (await counts(["store"]))["/desk/orders?state=paid"]!;
    const order = await insertOrder(db, {
      userId: null,
      email: "buyer@example.org",
      status: "pending_payment",
      createdAt: NOW.toISOString(),
      lines: [{ availabilityId: pick.hardcover.id }],
    });
    await payAtSandbox(db, sandbox, order, "buyer@example.org", NOW);

    const paid = await counts(["store"]);
    expect(paid["/desk/orders?state=paid"]).toBe(before + 1);
    expect(paid["/desk/orders?state=paid"]).toBe((await orderListPage(db, { state: "paid" }, 1, 1)).total);
    // The store's staff do not edit articles; customer service sees the orders too.
    expect(Object.keys(paid)).toEqual(["/desk/orders?state=paid"]);
    expect(await counts(["service"])).toEqual(paid);

    const sent = await fulfilLines(
      db,
      { id: null, label: "test" },
      order.id,
      { positions: [1], carrier: carrierFor("UPS"), trackingNumber: "1Z999AA10123456784", idempotencyKey: crypto.randomUUID() },
      NOW,
    );
    expect(sent).toMatchObject({ ok: true });
    expect((await counts(["store"]))["/desk/orders?state=paid"]).toBe(before);
    expect((await deskToDo(db, ["admin"])).map((item) => item.path)).toEqual([
      "/desk/articles?status=draft",
      "/desk/articles?status=scheduled",
      "/desk/orders?state=paid",
    ]);
  });
});
