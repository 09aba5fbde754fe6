import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { topicByFormerAddress, topicByHeadlineSegment } from "~/server/content/topics";
import { db } from "~/app/lib/context/db.server";

// Headline topic links (/topic/{name lowercased and hyphenated}) lead to the topic page.
export async function loader({ params }: LoaderFunctionArgs) {
  const database = await db();
  const segment = params.name ?? "";
  // A renamed topic's old name still leads to its page (ADR 078).
  const topic = (await topicByHeadlineSegment(database, segment)) ?? (await topicByFormerAddress(database, "headline", segment));
  if (!topic) throw new Response(null, { status: 404 });
  return redirect(topic.url, 301);
}

// A UI route (not a resource route) so an unknown name gets the 404 page inside the site chrome.
export default function TopicRedirect() {
  return null;
}
