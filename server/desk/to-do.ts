import type { Database } from "~/server/db/connection";
import { countOrders } from "~/server/store/fulfilment/desk-orders";
import type { Role } from "~/shared/staff-roles";
import { mayAct } from "./roles";

/** A count on the desk's home of work waiting, linking to the list that holds it. */
export interface ToDo {
  label: string;
  count: number;
  /** The desk's list, filtered to what is counted. */
  path: string;
}

async function articlesIn(db: Database, status: "draft" | "scheduled"): Promise<number> {
  const found = await db
    .selectFrom("article_record")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", status)
    .executeTakeFirstOrThrow();
  return Number(found.n);
}

/** What is waiting for these roles: drafts and scheduled articles, paid orders not yet fulfilled. */
export async function deskToDo(db: Database, roles: readonly Role[]): Promise<ToDo[]> {
  const waiting: Promise<ToDo>[] = [];
  if (mayAct(roles, "articles.list")) {
    waiting.push(
      articlesIn(db, "draft").then((count) => ({ label: count === 1 ? "Draft" : "Drafts", count, path: "/desk/articles?status=draft" })),
      articlesIn(db, "scheduled").then((count) => ({ label: "Scheduled to publish", count, path: "/desk/articles?status=scheduled" })),
    );
  }
  if (mayAct(roles, "orders.list")) {
    waiting.push(
      countOrders(db, { state: "paid" }).then((count) => ({
        label: count === 1 ? "Paid order not yet fulfilled" : "Paid orders not yet fulfilled",
        count,
        path: "/desk/orders?state=paid",
      })),
    );
  }
  return Promise.all(waiting);
}
