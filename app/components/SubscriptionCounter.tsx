import * as css from "./paywall.css";

/** The subscription counter banner: free articles left this month, and a way to subscribe. */
export function SubscriptionCounter({ remaining, abTag }: { remaining: number; abTag: string }) {
  return (
    <p className={css.counter} role="status" data-counter="">
      <span>
        {remaining === 0
          ? "This is your last free article this month."
          : `You have ${remaining} free ${remaining === 1 ? "article" : "articles"} left this month.`}
      </span>
      <a href={`/subscriptions?ab=${encodeURIComponent(abTag)}`} target="_blank" rel="noopener">
        Subscribe for unlimited access<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </p>
  );
}
