import { ZodError } from "zod";
import { formatWait } from "~/app/lib/accounts/messages";
import { NOT_THIS_SITE, shorten } from "~/app/lib/api/groups/links";
import { apiError, apiJson, apiRoute, invalidInput, serve } from "~/app/lib/api/handler.server";
import { shortenUrl } from "~/app/lib/content/short-links.server";

/** POST /service/integration/url/shorten (spec): a short link to a page of this site. */
const route = apiRoute(
  serve(shorten, async ({ request, context, body }) => {
    const outcome = await shortenUrl(request, context, body.url);
    if (outcome.ok) return apiJson({ shortUrl: outcome.shortUrl });
    if (outcome.reason === "not-this-site") return invalidInput(new ZodError([{ code: "custom", path: ["url"], message: NOT_THIS_SITE }]));
    return apiError(
      429,
      "too_many_requests",
      `Too many short links from this connection. Please wait ${formatWait(outcome.retryAfterSeconds)} and try again.`,
      {},
      { "Retry-After": String(outcome.retryAfterSeconds) },
    );
  }),
);

export const loader = route.loader;
export const action = route.action;
