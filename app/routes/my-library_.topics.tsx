import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { topicFilterValue, topicForFilter } from "~/server/library/follows";
import { parsePaging } from "~/shared/pagination";
import { StreamList } from "~/app/components/StreamList";
import * as css from "~/app/components/follows.css";
import * as prose from "~/app/components/prose.css";
import { config, db } from "~/app/lib/context/db.server";
import { loadFollowing } from "~/app/lib/library/following.server";
import { requireUser } from "~/app/lib/context/request-context.server";

// The following stream: the newest articles in the topics a reader follows, all of them or one
// (?filter={topic name}, "R&D" sent as "RD"), with a topic menu whose delete asks first
// (?confirm={topic}, rendered here so it works without JS). Visiting marks everything seen.

const PATH = "/my-library/topics";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const database = await db();
  const params = new URL(request.url).searchParams;
  const following = await loadFollowing(database, user.id, params.get("filter"), parsePaging(params, config().STREAM_UNLIMITED_LOADING));
  if (typeof following === "string") throw new Response(null, { status: 404 });
  const { topics, active, stream } = following;
  const confirmValue = params.get("confirm");
  const confirming = confirmValue ? topicForFilter(topics, confirmValue) : undefined;
  return {
    topics: topics.map((t) => ({ id: t.id, name: t.name, filter: topicFilterValue(t.name) })),
    active: active ? { id: active.id, name: active.name, filter: topicFilterValue(active.name) } : null,
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
    stream,
    unlimited: config().STREAM_UNLIMITED_LOADING,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.active ? `${data.active.name} | ` : ""}Topics you follow | Meridian Review` },
  { name: "robots", content: "noindex" },
];

const filterHref = (filter: string | null, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams({ ...(filter ? { filter } : {}), ...extra });
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
};

export default function FollowedTopics() {
  const { topics, active, confirming, stream, unlimited } = useLoaderData<typeof loader>();
  if (topics.length === 0) return <Welcome />;
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Topics you follow</h1>
        <p className={prose.lede}>The newest articles in the topics you follow.</p>
      </header>
      <div className={css.layout}>
        <nav aria-labelledby="topic-menu-heading">
          <h2 id="topic-menu-heading" className={prose.sectionHeading}>
            Your topics
          </h2>
          <ul className={css.topicMenu}>
            <li className={css.topicMenuItem}>
              <Link to={PATH} aria-current={active ? undefined : "page"}>
                Everything
              </Link>
            </li>
            {topics.map((t) => (
              <li key={t.id} className={css.topicMenuItem}>
                <Link to={filterHref(t.filter)} aria-current={active?.id === t.id ? "page" : undefined}>
                  {t.name}
                </Link>
                <Link to={filterHref(active?.filter ?? null, { confirm: t.filter })} className={css.removeLink} preventScrollReset>
                  Delete<span className="visually-hidden"> {t.name}</span>
                </Link>
              </li>
            ))}
            <li className={css.topicMenuItem}>
              <Link to="/topics">Find More</Link>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="following-heading">
          {confirming ? <ConfirmStop topic={confirming} cancel={filterHref(active?.filter ?? null)} /> : null}
          <h2 id="following-heading" className={prose.sectionHeading}>
            {active ? active.name : "Everything"}
          </h2>
          <StreamList stream={stream} unlimited={unlimited} emptyText="Nothing has been published in these topics yet." />
        </section>
      </div>
    </>
  );
}

/** Spec: deleting a topic asks 'Stop following "{topic}"?'; Yes unfollows and returns to everything. */
function ConfirmStop({ topic, cancel }: { topic: { id: number; name: string }; cancel: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [topic.id]);
  return (
    <div ref={box} className={css.confirm} role="group" aria-labelledby="confirm-question" tabIndex={-1}>
      <p id="confirm-question" className={css.confirmQuestion}>
        Stop following &quot;{topic.name}&quot;?
      </p>
      <Form method="post" action="/follow" className={css.followRow}>
        <input type="hidden" name="intent" value="unfollow" />
        <input type="hidden" name="kind" value="topic" />
        <input type="hidden" name="target" value={topic.id} />
        <input type="hidden" name="redirectTo" value={PATH} />
        <button type="submit" className={css.followButton}>
          Yes
        </button>
        <Link to={cancel} preventScrollReset>
          No
        </Link>
      </Form>
    </div>
  );
}

function Welcome() {
  return (
    <div className={prose.narrow}>
      <h1>Welcome to your topics</h1>
      <p>
        Follow the topics that matter to you and the newest articles in them will gather here, with a count of new ones in the header
        whenever you come back.
      </p>
      <p>
        <Link to="/topics">Browse topics to follow</Link>
      </p>
    </div>
  );
}
