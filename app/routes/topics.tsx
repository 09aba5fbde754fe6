import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listTopics, topicArticleCounts, topicDirectory } from "~/server/content/topics";
import { db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";
import * as prose from "~/app/components/prose.css";
import * as cards from "~/app/components/cards.css";
import * as css from "~/app/components/topics.css";

export async function loader() {
  const database = await db();
  const [topics, counts] = await Promise.all([listTopics(database), topicArticleCounts(database)]);
  const entry = (t: (typeof topics)[number]) => ({ ...t, count: counts.get(t.id) ?? 0 });
  return {
    topicCount: topics.filter((t) => t.subjectId !== null).length,
    subjects: topicDirectory(topics).map(({ subject, topics }) => ({ subject: entry(subject), topics: topics.map(entry) })),
  };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Topics",
    description: "Browse every topic we cover, from strategy and innovation to managing yourself, with the latest articles in each.",
    path: "/topics",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("topics"),
  });

type Entry = ReturnType<typeof useLoaderData<typeof loader>>["subjects"][number]["subject"];

function TopicMeta({ topic }: { topic: Entry }) {
  return (
    <p className={css.topicMeta}>
      {topic.count} {topic.count === 1 ? "article" : "articles"}
      {topic.subscriberOnly ? " · Subscribers only" : null}
      {topic.executiveOnly ? " · Executive subscribers" : null}
    </p>
  );
}

export default function Topics() {
  const { topicCount, subjects } = useLoaderData<typeof loader>();
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Topics</h1>
        <p className={prose.lede}>
          Find more of what interests you: {topicCount} topics in {subjects.length} subjects, each with its latest articles.
        </p>
      </header>
      <nav id="subjects" aria-labelledby="subjects-heading" className={css.jumpList}>
        <h2 id="subjects-heading" className={css.jumpHeading}>
          Jump to a subject
        </h2>
        <ul>
          {subjects.map(({ subject }) => (
            <li key={subject.id}>
              <a href={`#${subject.slug}`}>{subject.name}</a>
            </li>
          ))}
        </ul>
      </nav>
      {subjects.map(({ subject, topics }) => (
        <section key={subject.id} id={subject.slug} aria-labelledby={`${subject.slug}-heading`} className={css.subject}>
          <header className={css.subjectHeader}>
            <h2 id={`${subject.slug}-heading`} className={css.subjectName}>
              <Link to={subject.url} className={cards.cardTitleLink}>
                {subject.name}
              </Link>
            </h2>
            <p className={css.topicDescription}>{subject.description}</p>
            <TopicMeta topic={subject} />
          </header>
          <ul className={css.topicGrid} aria-label={`Topics in ${subject.name}`}>
            {topics.map((t) => (
              <li key={t.id} className={css.topicItem}>
                <h3 className={css.topicName}>
                  <Link to={t.url} className={cards.cardTitleLink}>
                    {t.name}
                  </Link>
                </h3>
                <p className={css.topicDescription}>{t.description}</p>
                <TopicMeta topic={t} />
              </li>
            ))}
          </ul>
          <p className={css.backLink}>
            <a href="#subjects">Back to all subjects</a>
          </p>
        </section>
      ))}
    </>
  );
}
