import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { UNKNOWN_FOLLOW_TARGET } from "~/shared/follow-refusals";
import { FOLLOW_KINDS, followAsReader, unfollowAllNewsletters, unfollowAsReader } from "~/server/library/follows";
import { SignInPrompt } from "~/app/components/SignInPrompt";
import * as prose from "~/app/components/prose.css";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { requestContext } from "~/app/lib/context/request-context.server";

// POST /follow: follow or unfollow a topic, newsletter or marketing campaign, or unsubscribe
// from every newsletter. A page form gets Post/Redirect/Get back to `redirectTo`; a fetcher
// (`via=fetcher`) gets JSON. Refusals answer 4xx with a message this route's page shows.

export const UNKNOWN_TARGET = UNKNOWN_FOLLOW_TARGET;

const input = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["follow", "unfollow"]), kind: z.enum(FOLLOW_KINDS), target: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("unfollow-all-newsletters") }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const viaFetcher = sentByFetcher(form);
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const refuse = (status: number, message: string) => data({ ok: false as const, message, redirectTo }, { status });

  const user = await requestContext({ request, context }).user();
  if (!user) {
    if (viaFetcher) return data({ ok: false as const, signIn: true as const, redirectTo }, { status: 401 });
    return redirect(`/follow?redirectTo=${encodeURIComponent(redirectTo)}`, 303);
  }
  const parsed = input.safeParse(Object.fromEntries(["intent", "kind", "target"].map((k) => [k, form.get(k) ?? undefined])));
  if (!parsed.success) return refuse(400, "That request could not be understood.");
  const database = await db();
  const wanted = parsed.data;
  let following = false;
  if (wanted.intent === "unfollow-all-newsletters") {
    await unfollowAllNewsletters(database, user.id);
  } else {
    const done =
      wanted.intent === "follow"
        ? await followAsReader(database, user.id, wanted.kind, wanted.target)
        : await unfollowAsReader(database, user.id, wanted.kind, wanted.target);
    if (!done.ok) return done.error === "refused" ? refuse(403, done.message) : refuse(404, UNKNOWN_TARGET);
    following = wanted.intent === "follow";
  }
  if (viaFetcher) return data({ ok: true as const, following, redirectTo });
  return redirect(redirectTo, 303);
}

/**
 * Where a guest's follow post lands without JS: the sign-in prompt. (No redirect for signed-in
 * readers here: the loader also runs under a refused post's page.)
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  return { redirectTo, signedIn: Boolean(await requestContext({ request, context }).user()) };
}

export const meta: MetaFunction = () => [{ title: "Sign in to follow | Meridian Review" }, { name: "robots", content: "noindex" }];

export default function FollowPage() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const back = result?.redirectTo ?? loaded.redirectTo ?? "/";
  return (
    <div className={prose.narrow}>
      {result && "message" in result ? (
        <>
          <h1>We could not do that</h1>
          <p role="alert">{result.message}</p>
          {/^This (topic|newsletter) is for/.test(result.message) ? (
            <p>
              <Link to="/subscriptions">See subscription offers</Link>
            </p>
          ) : null}
        </>
      ) : loaded.signedIn ? (
        <h1>You are signed in</h1>
      ) : (
        <>
          <h1>Sign in to follow</h1>
          <SignInPrompt redirectTo={back} />
        </>
      )}
      <p>
        <Link to={back}>Go back</Link>
      </p>
    </div>
  );
}
