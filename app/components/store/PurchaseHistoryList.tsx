import { Link } from "@remix-run/react";
import type { PurchaseEntry } from "~/server/store/purchase-history";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import * as css from "./store-orders.css";

/** Purchase history entries: orders (Purchased or Cancelled, up to 5 items each) and subscriptions. */
export function PurchaseHistoryList({ entries }: { entries: PurchaseEntry[] }) {
  return (
    <ol className={css.entries}>
      {entries.map((e) => (
        <li key={`${e.kind}-${e.id}`} className={css.entry}>
          <h3 className={css.entryTitle}>
            <Link to={e.href}>{e.title}</Link>
          </h3>
          <p className={css.meta}>
            <span className={css.status}>{e.status}</span> · <time dateTime={e.at}>{formatPublished(e.at)}</time> · Total{" "}
            {formatUsd(e.totalCents)}
          </p>
          {e.kind === "subscription" ? (
            <p className={css.meta}>
              Subscription · Account number {e.accountNumber}
              {e.accessEnd ? ` · Access until ${formatPublished(e.accessEnd)}` : null}
            </p>
          ) : (
            <ul className={css.lines} aria-label={`Items in ${e.title}`}>
              {e.lines.map((line, i) => (
                <li key={i}>
                  {line.title} <span className={css.meta}>({[line.contentType, line.authors].filter(Boolean).join(", by ")})</span>
                  {line.availableDate ? <span className={css.available}>Available {formatPublished(line.availableDate)}</span> : null}
                </li>
              ))}
              {e.moreLines > 0 ? <li>and {e.moreLines} more</li> : null}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
