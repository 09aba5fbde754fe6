import type { LoaderFunctionArgs } from "@remix-run/node";
import { previewIssue } from "~/server/newsletters/send";
import { secrets } from "~/server/secrets";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { issueFromParam } from "~/app/lib/desk/newsletters.server";

// An issue's HTML mail as it will arrive, for the preview page's frame (ADR 084). It keeps its
// own styles and runs nothing: a sandboxed document that may load only its pictures, framed only
// by the desk's own pages.

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.list");
  const db = await requestContext({ request, context }).db();
  const issue = await issueFromParam(db, params.issueId);
  const viewer = { userId: staff.user.id, email: staff.user.email, firstName: staff.user.firstName };
  const { mail } = await previewIssue(db, issue, viewer, { siteUrl: config().siteUrl, secret: secrets().sessionSecret });
  return new Response(mail.html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "sandbox; default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
      "X-Frame-Options": "SAMEORIGIN",
    },
  });
}

/** Nothing is posted here; anyone without a role still gets the desk's 404 rather than a 405. */
export async function action({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "newsletters.list");
  notFound();
}
