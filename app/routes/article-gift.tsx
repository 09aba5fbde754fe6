import type { ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/app/lib/forms/guard.server";
import { giftSchema } from "~/app/lib/paywall/gift-form";
import { setGiftFlash } from "~/app/lib/paywall/gift-flash.server";
import { giveGift } from "~/app/lib/paywall/gifts.server";
import { redirect } from "~/app/lib/http/responses.server";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";

/**
 * The article page's gift form without JS: Post/Redirect/Get back to the article's gift box, the
 * new link handed over in a flash cookie. With JS the form calls the service API instead
 * (POST /api/article-gift/give-gift), which keeps to the same rule (app/lib/paywall/gifts.server.ts).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const subscriber = await currentSubscriber({ request, context });
  if (!subscriber) throw new Response("Gifting articles is for subscribers.", { status: 403 });
  const input = giftSchema.safeParse({ url: form.get("url") ?? undefined });
  const outcome = input.success ? await giveGift(subscriber, input.data.url) : { kind: "unknown-article" as const };
  if (outcome.kind === "unknown-article") throw new Response("That article could not be found.", { status: 404 });
  // With the month's gifts used, the gift box says so.
  if (outcome.kind === "none-left") return redirect(`${outcome.article.url}#gift`, 303);
  return redirect(`${outcome.article.url}#gift`, {
    status: 303,
    headers: { "Set-Cookie": await setGiftFlash(outcome.article, subscriber.id, outcome.giftUrl) },
  });
}

export function loader() {
  throw new Response(null, { status: 405, headers: { Allow: "POST" } });
}

// A page route, not a resource route, so a refusal (cross-site, not a subscriber) is a page inside the site.
export { ErrorBoundary } from "~/app/root";
