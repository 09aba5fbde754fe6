import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HISTORY_PAGE_SIZE, shareHistory, viewHistory } from "~/server/library/history";
import { lastPage, parsePaging } from "~/shared/pagination";
import { storeMaintenance } from "~/server/store/maintenance";
import { purchaseHistory } from "~/server/store/purchase-history";
import { HistoryList } from "~/app/components/library/HistoryList";
import * as css from "~/app/components/library/library.css";
import { Pagination } from "~/app/components/Pagination";
import { PurchaseHistoryList } from "~/app/components/store/PurchaseHistoryList";
import { StoreMaintenanceNotice } from "~/app/components/store/StoreMaintenanceNotice";
import { config, db } from "~/app/lib/context/db.server";
import { requireUser } from "~/app/lib/context/request-context.server";

const HISTORIES = {
  reading: {
    title: "Reading history",
    empty: "Welcome to your reading history. The articles you open while signed in will be listed here, the latest first.",
  },
  watched: {
    title: "Watched history",
    empty: "Welcome to your watched history. The videos you open while signed in will be listed here, the latest first.",
  },
  sharing: {
    title: "Sharing history",
    empty: "Welcome to your sharing history. When you share an article or video by e-mail or on a social network, you will find it here.",
  },
  purchases: {
    title: "Purchase history",
    empty: "Welcome to your purchase history. The orders you place in our store will be listed here.",
  },
} as const;

type Kind = keyof typeof HISTORIES;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const kind = params.kind as Kind;
  if (!Object.hasOwn(HISTORIES, kind)) throw new Response(null, { status: 404 });
  const user = await requireUser({ request, context });
  const { page } = parsePaging(new URL(request.url).searchParams, false);
  const database = await db();
  if (kind === "purchases") {
    // Order history closes with ordering during store maintenance; the other histories stay open.
    const maintenance = storeMaintenance(config());
    if (maintenance.closed) return { kind, closed: maintenance, entries: [], purchases: [], page: 1, last: 1 };
    const { entries: purchases, total } = await purchaseHistory(database, user.id, page);
    const last = lastPage(total, HISTORY_PAGE_SIZE);
    if (page > last) throw new Response(null, { status: 404 });
    return { kind, closed: null, entries: [], purchases, page, last };
  }
  const { entries, total } =
    kind === "reading"
      ? await viewHistory(database, user.id, "article", page)
      : kind === "watched"
        ? await viewHistory(database, user.id, "video", page)
        : await shareHistory(database, user.id, page);
  const last = lastPage(total, HISTORY_PAGE_SIZE);
  if (page > last) throw new Response(null, { status: 404 });
  return { kind, closed: null, entries, purchases: [], page, last };
}

export default function History() {
  const { kind, closed, entries, purchases, page, last } = useLoaderData<typeof loader>();
  const { title, empty } = HISTORIES[kind];
  const path = `/my-library/history/${kind}`;
  const count = kind === "purchases" ? purchases.length : entries.length;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">{title}</h2>
      {closed ? (
        <StoreMaintenanceNotice window={closed.window} />
      ) : count === 0 ? (
        <p className={css.emptyState}>{empty}</p>
      ) : kind === "purchases" ? (
        <PurchaseHistoryList entries={purchases} />
      ) : (
        <HistoryList entries={entries} />
      )}
      <Pagination current={page} last={last} href={(n) => (n === 1 ? path : `${path}?page=${n}`)} label={`${title} pages`} />
    </section>
  );
}
