import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { readingListPage } from "~/server/content/reading-lists";
import { socialCard } from "~/shared/social-cards";
import * as cards from "~/app/components/cards.css";
import * as prose from "~/app/components/prose.css";
import { articleCount, ReadingListView } from "~/app/components/reading-lists/ReadingListView";
import { db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";

/**
 * A reading list's own page: its articles in order, numbered, and related lists. A subscriber
 * gets the whole list; anyone else its opening (server/content/reading-lists.ts). The article pages'
 * "THIS ARTICLE APPEARS IN" links lead here, and with JS show this page's data in a dialog.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  if (!/^[a-z0-9-]{1,80}$/.test(slug)) throw new Response(null, { status: 404 });
  const complete = Boolean(await currentSubscriber({ request, context }));
  const list = await readingListPage(await db(), slug, { complete });
  if (!list) throw new Response(null, { status: 404 });
  // What it shows depends on who reads it: never kept by a shared cache.
  return data({ list }, { headers: { "Cache-Control": "private, no-cache" } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const value = loaderHeaders.get("Cache-Control");
  return value ? { "Cache-Control": value } : new Headers();
};

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  loaded
    ? seo({
        title: `${loaded.list.name}: a reading list`,
        description: loaded.list.description,
        path: `/reading-lists/${loaded.list.slug}`,
        siteUrl: siteUrlFrom(matches),
        card: socialCard("reading-list", loaded.list.slug, loaded.list.name),
      })
    : [];

export default function ReadingListRoute() {
  const { list } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <header className={prose.pageHeading}>
        <p className={cards.eyebrow}>
          <Link className={cards.eyebrowLink} to="/reading-lists">
            Reading lists
          </Link>
        </p>
        <h1>{list.name}</h1>
        <p className={prose.lede}>{list.description}</p>
        <p className={cards.byline}>{articleCount(list.size)}, to read in order</p>
      </header>
      <ReadingListView list={list} headingLevel={2} />
    </div>
  );
}
