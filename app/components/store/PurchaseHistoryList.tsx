import { Link } from "@remix-run/react";
import type { PurchaseEntry } from "~/server/store/purchase-history";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import * as css from "./store-orders.css";

/** What became of an order after payment, in plain words: dispatch, delivery and refunds (ADR 086). */
export function progressWords(e: Pick<PurchaseEntry, "status" | "totalCents" | "progress">): string[] {
  const p = e.progress;
  if (!p) return [];
  const words: string[] = [];
  if (e.status === "Purchased") {
    if (p.stage === "delivered") words.push("Delivered");
    else if (p.shipments.length > 0) words.push(p.awaitingDispatch ? "Partly dispatched" : "Dispatched");
    else if (p.awaitingDispatch) words.push("Not dispatched yet");
  }
  if (p.refund === "refunded") words.push(`Refunded ${formatUsd(p.refundedCents)}`);
  else if (p.refund === "partly-refunded") words.push(`Partly refunded: ${formatUsd(p.refundedCents)} of ${formatUsd(e.totalCents)}`);
  return words;
}

/** Purchase history entries: orders (Purchased or Cancelled, up to 5 items each) and subscriptions. */
export function PurchaseHistoryList({ entries }: { entries: PurchaseEntry[] }) {
  return (
    <ol className={css.entries}>
      {entries.map((e) => {
        const words = progressWords(e);
        const shipments = e.progress?.shipments ?? [];
        return (
          <li key={`${e.kind}-${e.id}`} className={css.entry}>
            <h3 className={css.entryTitle}>
              <Link to={e.href}>{e.title}</Link>
            </h3>
            <p className={css.meta}>
              <span className={css.status}>{e.status}</span> · <time dateTime={e.at}>{formatPublished(e.at)}</time> · Total{" "}
              {formatUsd(e.totalCents)}
            </p>
            {words.length > 0 ? <p className={css.progress}>{words.join(" · ")}</p> : null}
            {shipments.length > 0 ? (
              <ul className={css.shipments} aria-label={`Shipments of ${e.title}`}>
                {shipments.map((s) => (
                  <li key={`${s.shippedAt}-${s.trackingNumber}`}>
                    Dispatched <time dateTime={s.shippedAt}>{formatPublished(s.shippedAt)}</time> with {s.carrier}, tracking number{" "}
                    {s.trackingUrl ? <a href={s.trackingUrl}>{s.trackingNumber}</a> : s.trackingNumber}
                    {s.deliveredAt ? (
                      <>
                        ; delivered <time dateTime={s.deliveredAt}>{formatPublished(s.deliveredAt)}</time>
                      </>
                    ) : null}
                    .
                  </li>
                ))}
              </ul>
            ) : null}
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
        );
      })}
    </ol>
  );
}
