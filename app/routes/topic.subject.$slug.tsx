import type { LoaderFunctionArgs } from "@remix-run/node";
import { topicStream } from "../../server/streams";
import { topicBySlug } from "../../server/topics";
import { StreamPage, streamMeta } from "../components/StreamPage";
import { db } from "../lib/db.server";
import { loadStreamPage } from "../lib/stream-page.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const topic = await topicBySlug(await db(), params.slug ?? "");
  if (!topic) throw new Response(null, { status: 404 });
  return loadStreamPage(request, topicStream(topic));
}

export const meta = streamMeta;

export default function TopicPage() {
  return <StreamPage />;
}
