import type { OrderDownload } from "~/server/store/downloads";
import { formatPublished } from "~/app/lib/content/format";
import * as css from "./store-orders.css";

/** The order page's downloads: the digital lines of a paid order, for its buyer. */
export function OrderDownloads({ downloads }: { downloads: OrderDownload[] }) {
  if (downloads.length === 0) return null;
  return (
    <section className={css.downloads} aria-labelledby="order-downloads">
      <h2 id="order-downloads">Downloads</h2>
      <ul className={css.downloadList}>
        {downloads.map((d) => (
          <li key={d.position}>
            {d.expired ? (
              <>
                {d.title} ({d.format}): {d.refunded ? "refunded" : "access ended"} on {formatPublished(d.expiresAt!)}
              </>
            ) : (
              <>
                <a href={d.href} download>
                  Download {d.title} ({d.format})
                </a>
                {d.expiresAt ? <span className={css.meta}> · available until {formatPublished(d.expiresAt)}</span> : null}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
