import * as css from "./paywall.css";

/**
 * The subscription counter banner: free articles left this month (`text`, made by the page's
 * loader: for a signed-in reader it is a mark, ADR 096), and a way to subscribe.
 */
export function SubscriptionCounter({ text, abTag }: { text: string; abTag: string }) {
  return (
    <p className={css.counter} role="status" data-counter="">
      <span>{text}</span>
      <a href={`/subscriptions?ab=${encodeURIComponent(abTag)}`} target="_blank" rel="noopener">
        Subscribe for unlimited access<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </p>
  );
}
