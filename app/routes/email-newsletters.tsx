import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { followedTargets } from "~/server/library/follows";
import { SUBSCRIBER_ONLY_NEWSLETTER } from "~/shared/follow-refusals";
import { listCampaigns, listNewsletters } from "~/server/newsletters/catalog";
import { FollowButton } from "~/app/components/FollowButton";
import { HelpBox } from "~/app/components/HelpBox";
import { SignInPrompt } from "~/app/components/SignInPrompt";
import { secondaryButton } from "~/app/components/forms/forms.css";
import * as css from "~/app/components/follows.css";
import * as prose from "~/app/components/prose.css";
import { db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";
import { requestContext } from "~/app/lib/context/request-context.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const database = await db();
  const user = await requestContext({ request, context }).user();
  const [newsletters, campaigns, subscribed, campaignIds, status] = await Promise.all([
    listNewsletters(database),
    listCampaigns(database),
    user ? followedTargets(database, user.id, "newsletter") : new Set<string>(),
    user ? followedTargets(database, user.id, "campaign") : new Set<string>(),
    requestContext({ request, context }).subscriber(),
  ]);
  return {
    signedIn: Boolean(user),
    subscriber: Boolean(status),
    newsletters: newsletters.map((n) => ({ ...n, subscribed: subscribed.has(n.slug) })),
    campaigns: campaigns.map((c) => ({ ...c, subscribed: campaignIds.has(c.id) })),
  };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Email Newsletters",
    description:
      "Our newsletters and e-mail updates: what each one covers, how often it arrives, and one place to subscribe or unsubscribe.",
    path: "/email-newsletters",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("email-newsletters"),
  });

export default function EmailNewsletters() {
  const { signedIn, subscriber, newsletters, campaigns } = useLoaderData<typeof loader>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const count = newsletters.filter((n) => n.subscribed).length;
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Email Newsletters</h1>
        <p className={prose.lede}>Our editors' newsletters and updates, delivered to your inbox. Choose the ones you want.</p>
        {signedIn ? (
          <p role="status">
            {count === 0
              ? "You are not subscribed to any newsletters."
              : `You are subscribed to ${count} ${count === 1 ? "newsletter" : "newsletters"}.`}
          </p>
        ) : (
          <SignInPrompt redirectTo={here} />
        )}
      </header>
      {subscriber ? (
        <HelpBox id="insider-newsletter" headline="The Insider newsletter">
          Subscribers get a weekly briefing from our editors. Switch it on below.
        </HelpBox>
      ) : null}
      <section aria-labelledby="newsletters-heading">
        <h2 id="newsletters-heading" className={prose.sectionHeading}>
          Newsletters
        </h2>
        <ul className={css.list}>
          {newsletters.map((n) => (
            <li key={n.slug} className={css.item}>
              <h3 className={css.itemName}>{n.name}</h3>
              <p className={css.frequency}>
                {n.frequency}
                {n.subscriberOnly ? " · For subscribers" : null}
              </p>
              <p>{n.description}</p>
              {!signedIn ? null : n.subscriberOnly && !subscriber && !n.subscribed ? (
                <p className={css.message}>
                  {SUBSCRIBER_ONLY_NEWSLETTER} <Link to="/subscriptions">See subscription offers</Link>
                </p>
              ) : (
                <FollowButton
                  kind="newsletter"
                  target={n.slug}
                  following={n.subscribed}
                  labels={{ off: "Subscribe", on: "Unsubscribe" }}
                  hiddenName={{ off: `to ${n.name}`, on: `from ${n.name}` }}
                />
              )}
            </li>
          ))}
        </ul>
        {signedIn ? (
          <Form method="post" action="/follow" className={css.followRow}>
            <input type="hidden" name="intent" value="unfollow-all-newsletters" />
            <input type="hidden" name="redirectTo" value={here} />
            <button type="submit" className={secondaryButton} disabled={count === 0}>
              Unsubscribe from all
            </button>
          </Form>
        ) : null}
      </section>
      <section aria-labelledby="campaigns-heading">
        <h2 id="campaigns-heading" className={prose.sectionHeading}>
          Other e-mail from us
        </h2>
        <ul className={css.list}>
          {campaigns.map((c) => (
            <li key={c.id} className={css.item}>
              <h3 className={css.itemName}>{c.name}</h3>
              <p>{c.description}</p>
              {signedIn ? (
                <FollowButton
                  kind="campaign"
                  target={c.id}
                  following={c.subscribed}
                  labels={{ off: "Subscribe", on: "Unsubscribe" }}
                  hiddenName={{ off: `to ${c.name}`, on: `from ${c.name}` }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
