import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import { normalizeEmail } from "~/server/accounts/users";

// Finding a reader (ADR 087): by e-mail address (exact or its start), by name, by a print
// account number or by an order number (which finds its buyer).

export const READERS_PAGE_SIZE = 20;
/** Longer than any address, name or number: a query past it is refused, not searched. */
export const QUERY_MAX = 200;

export interface FoundReader {
  id: string;
  email: string;
  name: string;
  status: string;
  createdAt: string;
  /** How the query found them. */
  matched: "email" | "name" | "print account" | "order";
}

export interface ReaderSearch {
  readers: FoundReader[];
  total: number;
  page: number;
  pages: number;
}

/** LIKE's own characters, matched as themselves. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The readers a query finds, best kind of match first, then by address; `page` from 1. */
export async function findReaders(db: Database, query: string, page: number, size = READERS_PAGE_SIZE): Promise<ReaderSearch> {
  const q = query.trim().replace(/\s+/g, " ");
  if (!q || q.length > QUERY_MAX) return { readers: [], total: 0, page: 1, pages: 1 };
  const lower = q.toLowerCase();
  const byNumber = q.toUpperCase();

  // Ids found by number: an order's buyer (their account, else the account with the order's
  // address), and a print account's linked reader or the account under its address.
  const orders = await db.selectFrom("store_order").select(["user_id", "email"]).where("number", "=", byNumber).execute();
  const prints = await db.selectFrom("print_subscriber").select("email").where("account_number", "=", byNumber).execute();
  const linked = await db
    .selectFrom("subscription")
    .select("user_id")
    .where("reference", "=", `${PRINT_REFERENCE_PREFIX}${byNumber}`)
    .execute();
  const numberMatches = new Map<string, FoundReader["matched"]>();
  const addresses = new Map<string, FoundReader["matched"]>();
  for (const o of orders) {
    if (o.user_id) numberMatches.set(o.user_id, "order");
    else addresses.set(normalizeEmail(o.email), "order");
  }
  for (const l of linked) if (l.user_id) numberMatches.set(l.user_id, "print account");
  for (const p of prints) addresses.set(normalizeEmail(p.email), "print account");
  if (addresses.size > 0) {
    const rows = await db
      .selectFrom("app_user")
      .select(["id", "email"])
      .where("email", "in", [...addresses.keys()])
      .execute();
    for (const r of rows) if (!numberMatches.has(r.id)) numberMatches.set(r.id, addresses.get(r.email)!);
  }

  const pattern = likePrefix(lower);
  const emailMatch = lower.includes(" ") ? sql<boolean>`1 = 0` : sql<boolean>`app_user.email like ${pattern} escape '\\'`;
  const nameMatch = sql<boolean>`(lower(app_user.first_name) like ${pattern} escape '\\' or lower(app_user.last_name) like ${pattern} escape '\\' or lower(app_user.first_name || ' ' || app_user.last_name) like ${pattern} escape '\\' or lower(app_user.display_name) like ${pattern} escape '\\')`;
  const ids = [...numberMatches.keys()];
  const matching = db
    .selectFrom("app_user")
    .where((eb) => eb.or([emailMatch, nameMatch, ...(ids.length > 0 ? [eb("app_user.id", "in", ids)] : [])]));

  const total = Number((await matching.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const pages = Math.max(1, Math.ceil(total / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const exact = normalizeEmail(q);
  const rank = sql<number>`case when app_user.email = ${exact} then 0 when ${emailMatch} then 1 else 2 end`;
  let ordered = matching.select(["id", "email", "first_name", "last_name", "status", "created_at"]).select(emailMatch.as("by_email"));
  // An account found by its number first, then the address typed in full, then the rest by address.
  if (ids.length > 0) ordered = ordered.orderBy(sql`case when app_user.id in (${sql.join(ids)}) then 0 else 1 end`);
  const rows = await ordered
    .orderBy(rank)
    .orderBy("email")
    .limit(size)
    .offset((current - 1) * size)
    .execute();
  return {
    readers: rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: `${r.first_name} ${r.last_name}`.trim(),
      status: r.status,
      createdAt: r.created_at,
      matched: numberMatches.get(r.id) ?? (Number(r.by_email) ? "email" : "name"),
    })),
    total,
    page: current,
    pages,
  };
}
