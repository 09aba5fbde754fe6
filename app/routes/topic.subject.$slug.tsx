import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { followRefusal, isFollowing } from "~/server/library/follows";
import { topicStream } from "~/server/content/streams";
import { listTopics, topicByFormerAddress } from "~/server/content/topics";
import { FollowButton } from "~/app/components/FollowButton";
import { StreamPage, streamMeta } from "~/app/components/StreamPage";
import * as cards from "~/app/components/cards.css";
import { chip, chipList } from "~/app/components/chips.css";
import * as css from "~/app/components/follows.css";
import * as topicsCss from "~/app/components/topics.css";
import { db } from "~/app/lib/context/db.server";
import { loadStreamPage } from "~/app/lib/content/stream-page.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { redirect } from "~/app/lib/http/responses.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const database = await db();
  const topics = await listTopics(database);
  const topic = topics.find((t) => t.slug === params.slug);
  if (!topic) {
    // The page of a renamed topic's old slug moved (ADR 078).
    const renamed = await topicByFormerAddress(database, "slug", params.slug ?? "");
    if (renamed) throw redirect(renamed.url + new URL(request.url).search, 301);
    throw new Response(null, { status: 404 });
  }
  // A topic names its subject; a subject lists its topics.
  const subject = topics.find((t) => t.id === topic.subjectId);
  const taxonomy = {
    subject: subject ? { name: subject.name, url: subject.url } : null,
    topics: topics.filter((t) => t.subjectId === topic.id).map((t) => ({ name: t.name, url: t.url })),
  };
  const [page, user] = await Promise.all([loadStreamPage(request, topicStream(topic)), requestContext({ request, context }).user()]);
  const [following, status] = user
    ? await Promise.all([isFollowing(database, user.id, "topic", String(topic.id)), requestContext({ request, context }).subscriber()])
    : [false, null];
  const follow = {
    topicId: String(topic.id),
    following,
    // Guests get the button: following it asks them to sign in. Readers who may not follow see why.
    refusal: user && !following ? followRefusal({ kind: "topic", ...topic }, status) : null,
  };
  return data({ ...page.data, follow, taxonomy }, page.init ?? undefined);
}

export const meta = streamMeta;

export default function TopicPage() {
  const { title, follow, taxonomy } = useLoaderData<typeof loader>();
  return (
    <StreamPage
      kicker={
        taxonomy.subject ? (
          <p className={cards.eyebrow}>
            <Link className={cards.eyebrowLink} to={taxonomy.subject.url}>
              {taxonomy.subject.name}
            </Link>
          </p>
        ) : null
      }
      headerExtra={
        <>
          {follow.refusal ? (
            <p className={css.followRow}>
              {follow.refusal} <Link to="/subscriptions">See subscription offers</Link>
            </p>
          ) : (
            <FollowButton
              kind="topic"
              target={follow.topicId}
              following={follow.following}
              labels={{ off: "Follow this", on: "Following" }}
            />
          )}
          {taxonomy.topics.length > 0 ? (
            <nav aria-labelledby="subject-topics-heading" className={topicsCss.subjectTopics}>
              <h2 id="subject-topics-heading" className={topicsCss.subjectTopicsHeading}>
                Topics in {title}
              </h2>
              <ul className={chipList}>
                {taxonomy.topics.map((t) => (
                  <li key={t.url}>
                    <Link to={t.url} className={chip}>
                      {t.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </>
      }
    />
  );
}
