import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { renderDownloadFile } from "~/server/documents/download-files";
import { openDownload } from "~/server/store/downloads";
import { DownloadAccessEnded } from "~/app/components/store/DownloadAccessEnded";
import { config, db } from "~/app/lib/context/db.server";
import { attachment } from "~/app/lib/store/downloads.server";
import { formatPublished } from "~/app/lib/content/format";
import { applySecurityHeaders } from "~/app/lib/http/security.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { imageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import { mediaFile, openMediaFile } from "~/server/media";

/** A file the desk uploaded for the format (ADR 091), streamed a chunk at a time to its buyer, kept by no cache. */
async function uploadedDownload(database: Database, fileId: string, slug: string): Promise<Response> {
  const file = await mediaFile(database, fileId);
  if (!file) throw new Response("No such download", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Content-Length": String(file.bytes),
    "Content-Disposition": `attachment; filename="${slug}.${file.extension}"`,
    "Cache-Control": "private, no-store",
  });
  applySecurityHeaders(headers);
  return new Response(await openMediaFile(database, imageStorage(), file, 0, file.bytes - 1), { headers });
}

/**
 * One digital line of a paid order, for its buyer: the signed-in reader who placed it, or a
 * guest holding the order's key (?key=). Everyone and everything else is a 404; a case study
 * whose six months are over is a 410 page saying so.
 */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const user = await requestContext({ request, context }).user();
  const key = new URL(request.url).searchParams.get("key");
  const now = new Date();
  const access = await openDownload(
    await db(),
    { orderId: params.orderId ?? "", position: params.position ?? "", userId: user?.id ?? null, key },
    now,
  );
  if (access.status === "not-found")
    throw new Response("No such download", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  if (access.status === "expired" || access.status === "refunded") {
    const orderHref = `/order/${access.orderId}${key ? `?key=${encodeURIComponent(key)}` : ""}`;
    const html = renderToStaticMarkup(
      <DownloadAccessEnded
        title={access.title}
        endedOn={formatPublished(access.status === "expired" ? access.expiresAt : access.refundedAt)}
        orderHref={orderHref}
        refunded={access.status === "refunded"}
      />,
    );
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" });
    applySecurityHeaders(headers);
    return new Response(`<!DOCTYPE html>${html}`, { status: 410, headers });
  }
  const { source } = access;
  if (source.uploadedFileId) return uploadedDownload(await db(), source.uploadedFileId, source.product.slug);
  const file = await renderDownloadFile(source, {
    published: formatPublished(source.product.published),
    formatDate: formatPublished,
    paidOn: formatPublished(source.paidAt),
    siteUrl: config().siteUrl,
    siteName: SITE_NAME,
    now,
  });
  return attachment(new Uint8Array(file.body), file.contentType, file.filename);
});
