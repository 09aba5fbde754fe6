import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { allReadingLists } from "../../server/reading-lists";
import * as css from "../components/library/library.css";
import * as prose from "../components/prose.css";
import { db } from "../lib/db.server";
import { seo, siteUrlFrom } from "../lib/seo";
import { readingListAnchor } from "../../shared/urls";

export async function loader() {
  return { lists: await allReadingLists(await db()) };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Reading lists",
    description: "Articles our editors put together to read in order, on the subjects managers ask us about most.",
    path: "/reading-lists",
    siteUrl: siteUrlFrom(matches),
  });

export default function ReadingLists() {
  const { lists } = useLoaderData<typeof loader>();
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Reading lists</h1>
        <p className={prose.lede}>Articles our editors chose to be read together, in order.</p>
      </header>
      {lists.map((list) => (
        <section key={list.slug} aria-labelledby={readingListAnchor(list.slug)}>
          <h2 id={readingListAnchor(list.slug)}>{list.name}</h2>
          <p>{list.description}</p>
          <ol className={css.items}>
            {list.items.map((item, index) => (
              <li key={item.url} className={css.numberedItem}>
                {/* The list already gives each item its place to assistive technology. */}
                <span className={css.itemNumber} aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h3 className={css.itemTitle}>
                    <Link to={item.url}>{item.title}</Link>
                  </h3>
                  <p className={css.itemMeta}>{item.summary}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </>
  );
}
