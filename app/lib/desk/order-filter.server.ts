import { z } from "zod";
import { isOrderFilter, type OrderFilter } from "~/server/store/fulfilment/lifecycle";
import { orderListFilter, type OrderListFilter } from "~/server/store/fulfilment/desk-orders";

// The desk's order list filter, read from the address the same way by the page and its CSV
// export: a state, a range of UTC days and a page. What cannot be read is left out and said so.

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const querySchema = z.object({
  state: z.string().max(40).optional(),
  from: z.string().regex(DAY).optional(),
  to: z.string().regex(DAY).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

export const BAD_ORDER_FILTER = "Some of the filter could not be read and was left out: dates are days such as 2026-05-14.";

export interface ReadOrderFilter {
  filter: OrderListFilter;
  /** As the form shows it. */
  shown: { state: OrderFilter | ""; from: string; to: string };
  page: number;
  problem: string | null;
}

export function readOrderFilter(url: URL): ReadOrderFilter {
  const raw = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ""));
  const parsed = querySchema.safeParse(raw);
  const wanted = parsed.success ? parsed.data : {};
  const valid = (day: string | undefined) => (day && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? day : undefined);
  const from = valid(wanted.from);
  const to = valid(wanted.to);
  const state = isOrderFilter(wanted.state) ? wanted.state : undefined;
  const clean = parsed.success && (!wanted.from || from) && (!wanted.to || to) && (!wanted.state || state);
  return {
    filter: orderListFilter(state, from, to),
    shown: { state: state ?? "", from: from ?? "", to: to ?? "" },
    page: wanted.page ?? 1,
    problem: clean ? null : BAD_ORDER_FILTER,
  };
}

/** The filter as a query string (without the page), for links and the export. */
export const filterQuery = (shown: ReadOrderFilter["shown"]) =>
  new URLSearchParams(Object.entries(shown).filter(([, value]) => value !== ""));
