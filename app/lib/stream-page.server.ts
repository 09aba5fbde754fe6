import { data } from "@remix-run/node";
import { parsePaging } from "../../shared/pagination";
import { loadStream, type StreamDefinition } from "../../server/streams";
import { config, db } from "./db.server";

/** Loader body shared by every stream page: paging from the query, or the maintenance view. */
export async function loadStreamPage(request: Request, stream: StreamDefinition) {
  const c = config();
  const info = {
    slug: stream.slug,
    title: stream.title,
    description: stream.description,
    listId: stream.listId ?? null,
    unlimited: c.STREAM_UNLIMITED_LOADING,
  };
  if (c.MAINTENANCE_MODE) {
    return data({ ...info, maintenance: true as const, stream: null }, { status: 503, headers: { "Retry-After": "3600" } });
  }
  const paging = parsePaging(new URL(request.url).searchParams, c.STREAM_UNLIMITED_LOADING);
  const page = await loadStream(await db(), stream, paging);
  if (paging.page > page.page.last) throw new Response(null, { status: 404 });
  return data({ ...info, maintenance: false as const, stream: page });
}
