import type { LoaderFunctionArgs } from "@remix-run/node";
import { STREAM_PAGES } from "~/server/content/streams";
import { StreamPage, streamMeta } from "~/app/components/StreamPage";
import { loadStreamPage } from "~/app/lib/content/stream-page.server";

// One module serves every named stream page (/the-latest, /big-ideas, /ascend, ...).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const stream = Object.hasOwn(STREAM_PAGES, params.stream ?? "") ? STREAM_PAGES[params.stream!] : undefined;
  if (!stream) throw new Response(null, { status: 404 });
  return loadStreamPage(request, stream);
}

export const meta = streamMeta;

export default function Page() {
  return <StreamPage />;
}
