import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { readingListSummaries } from "~/server/content/reading-lists";
import { readingListPath } from "~/shared/urls";
import * as prose from "~/app/components/prose.css";
import { articleCount } from "~/app/components/reading-lists/ReadingListView";
import * as cards from "~/app/components/cards.css";
import * as css from "~/app/components/reading-lists/reading-lists.css";
import { db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";

export async function loader() {
  return { lists: await readingListSummaries(await db()) };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Reading lists",
    description: "Articles our editors put together to read in order, on the subjects managers ask us about most.",
    path: "/reading-lists",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("reading-lists"),
  });

export default function ReadingLists() {
  const { lists } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <header className={prose.pageHeading}>
        <h1>Reading lists</h1>
        <p className={prose.lede}>Articles our editors chose to be read together, in order.</p>
      </header>
      <ul className={css.lists}>
        {lists.map((list) => (
          <li key={list.slug} className={css.listEntry}>
            <h2 className={css.listName}>
              <Link to={readingListPath(list.slug)} className={cards.cardTitleLink}>
                {list.name}
              </Link>
            </h2>
            <p className={css.meta}>{articleCount(list.size)}</p>
            <p>{list.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
