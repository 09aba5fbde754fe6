import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { followRefusal, isFollowing } from "../../server/follows";
import { topicStream } from "../../server/streams";
import { subscriberStatus } from "../../server/subscriptions/entitlements";
import { topicBySlug } from "../../server/topics";
import { FollowButton } from "../components/FollowButton";
import { StreamPage, streamMeta } from "../components/StreamPage";
import * as css from "../components/follows.css";
import { db } from "../lib/db.server";
import { currentUser } from "../lib/session.server";
import { loadStreamPage } from "../lib/stream-page.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const database = await db();
  const topic = await topicBySlug(database, params.slug ?? "");
  if (!topic) throw new Response(null, { status: 404 });
  const [page, user] = await Promise.all([loadStreamPage(request, topicStream(topic)), currentUser(request)]);
  const [following, status] = user
    ? await Promise.all([isFollowing(database, user.id, "topic", String(topic.id)), subscriberStatus(database, user.id)])
    : [false, null];
  const follow = {
    topicId: String(topic.id),
    following,
    // Guests get the button: following it asks them to sign in. Readers who may not follow see why.
    refusal: user && !following ? followRefusal({ kind: "topic", ...topic }, status) : null,
  };
  return data({ ...page.data, follow }, page.init ?? undefined);
}

export const meta = streamMeta;

export default function TopicPage() {
  const { follow } = useLoaderData<typeof loader>();
  return (
    <StreamPage
      headerExtra={
        follow.refusal ? (
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
        )
      }
    />
  );
}
