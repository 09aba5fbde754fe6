import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { activityFeed, HISTORY_PAGE_SIZE } from "~/server/library/history";
import { lastPage, parsePaging } from "~/shared/pagination";
import { HistoryList } from "~/app/components/library/HistoryList";
import * as css from "~/app/components/library/library.css";
import { Pagination } from "~/app/components/Pagination";
import { db } from "~/app/lib/context/db.server";
import { requireUser } from "~/app/lib/context/request-context.server";

export const EMPTY_ACTIVITY = "Welcome to your activity feed. What you save, read, watch and share on Meridian Review will show up here.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const { page } = parsePaging(new URL(request.url).searchParams, false);
  const { entries, total } = await activityFeed(await db(), user.id, page);
  const last = lastPage(total, HISTORY_PAGE_SIZE);
  if (page > last) throw new Response(null, { status: 404 });
  return { entries, page, last };
}

export default function Activity() {
  const { entries, page, last } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      {entries.length === 0 ? <p className={css.emptyState}>{EMPTY_ACTIVITY}</p> : <HistoryList entries={entries} />}
      <Pagination
        current={page}
        last={last}
        href={(n) => (n === 1 ? "/my-library/activity" : `/my-library/activity?page=${n}`)}
        label="Activity pages"
      />
    </section>
  );
}
