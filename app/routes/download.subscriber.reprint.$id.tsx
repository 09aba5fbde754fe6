import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderReprintPdf } from "~/server/documents/pdf";
import { config, db } from "~/app/lib/context/db.server";
import { articleIdFromReprint } from "~/app/lib/store/downloads";
import { articleById, attachment } from "~/app/lib/store/downloads.server";
import { formatPublished } from "~/app/lib/content/format";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { requireSubscription } from "~/app/lib/subscriptions/subscriber.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { requestContext, requireUser } from "~/app/lib/context/request-context.server";

/** A subscriber's PDF reprint of an article (product id "R" + article id), licensed to them. */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const articleId = articleIdFromReprint(params.id ?? "");
  const article = articleId === undefined ? undefined : await articleById(await db(), articleId);
  if (!article) throw new Response("No such reprint", { status: 404 });
  await requireSubscription(requestContext({ request, context }), "reprint", article.url);

  const now = new Date();
  const pdf = await renderReprintPdf({
    title: article.title,
    dek: article.dek,
    authors: article.authors.map((a) => a.name),
    published: formatPublished(article.published),
    blocks: article.blocks,
    sourceUrl: `${config().siteUrl}${article.url}`,
    licensee: `Licensed to ${user.firstName} ${user.lastName} (${user.email}) on ${formatPublished(now.toISOString())}`,
    siteName: SITE_NAME,
    now,
  });
  return attachment(new Uint8Array(pdf), "application/pdf", `${article.slug}.pdf`);
});
