import { data } from "@remix-run/node";
import { parsePaging, type Paging } from "~/shared/pagination";
import { loadStream, pageSize, type StreamDefinition, type StreamPage } from "~/server/content/streams";
import { config, db } from "~/app/lib/context/db.server";

/**
 * One page of a named stream, for its page and the stream service: "maintenance" while the site
 * is in maintenance, "past-end" for a page beyond the last. `size` defaults to the page's own.
 */
export async function namedStreamPage(
  stream: StreamDefinition,
  paging: Paging,
  size = pageSize(stream),
): Promise<StreamPage | "maintenance" | "past-end"> {
  if (config().MAINTENANCE_MODE) return "maintenance";
  const page = await loadStream(await db(), stream, paging, size);
  return paging.page > page.page.last ? "past-end" : page;
}

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
  const page = await namedStreamPage(stream, parsePaging(new URL(request.url).searchParams, c.STREAM_UNLIMITED_LOADING));
  if (page === "maintenance") {
    return data({ ...info, maintenance: true as const, stream: null }, { status: 503, headers: { "Retry-After": "3600" } });
  }
  if (page === "past-end") throw new Response(null, { status: 404 });
  return data({ ...info, maintenance: false as const, stream: page });
}
