import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listTopics, topicArticleCounts } from "../../server/topics";
import { db } from "../lib/db.server";
import { seo, siteUrlFrom } from "../lib/seo";
import * as prose from "../components/prose.css";
import * as css from "../components/topics.css";

export async function loader() {
  const database = await db();
  const [topics, counts] = await Promise.all([listTopics(database), topicArticleCounts(database)]);
  return { topics: topics.map((t) => ({ ...t, count: counts.get(t.id) ?? 0 })) };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Topics",
    description: "Browse every topic we cover, from strategy and innovation to managing yourself, with the latest articles in each.",
    path: "/topics",
    siteUrl: siteUrlFrom(matches),
  });

export default function Topics() {
  const { topics } = useLoaderData<typeof loader>();
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Topics</h1>
        <p className={prose.lede}>Find more of what interests you: every topic we cover, with its latest articles.</p>
      </header>
      <ul className={css.topicGrid}>
        {topics.map((t) => (
          <li key={t.id} className={css.topicItem}>
            <h2 className={css.topicName}>
              <Link to={t.url}>{t.name}</Link>
            </h2>
            <p className={css.topicDescription}>{t.description}</p>
            <p className={css.topicMeta}>
              {t.count} {t.count === 1 ? "article" : "articles"}
              {t.subscriberOnly ? " · Subscribers only" : null}
              {t.executiveOnly ? " · Executive subscribers" : null}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
