import { Link } from "@remix-run/react";
import type { HistoryEntry } from "~/server/library/history";
import { formatPublished } from "~/app/lib/content/format";
import * as css from "./library.css";

const NETWORKS = { facebook: "Facebook", twitter: "Twitter", linkedin: "LinkedIn", email: "e-mail" } as const;

/** What the reader did with an item, as the histories and the activity feed word it. */
export function activityLabel(entry: Pick<HistoryEntry, "activity" | "provider">): string {
  switch (entry.activity) {
    case "saved":
      return "Saved";
    case "read":
      return "Read";
    case "watched":
      return "Watched";
    case "shared":
      return `Shared via ${NETWORKS[entry.provider ?? "email"]}`;
  }
}

export function HistoryList({ entries }: { entries: HistoryEntry[] }) {
  return (
    <ol className={css.items}>
      {entries.map((e, i) => (
        <li key={`${e.item.type}-${e.item.id}-${e.at}-${i}`} className={css.item}>
          <span />
          <img className={css.thumb} src={e.item.image} alt="" width={128} height={72} loading="lazy" />
          <div>
            <p className={css.itemMeta}>
              {activityLabel(e)} · <time dateTime={e.at}>{formatPublished(e.at)}</time>
            </p>
            <h3 className={css.itemTitle}>
              <Link to={e.item.url}>{e.item.title}</Link>
            </h3>
            <p className={css.itemMeta}>
              {e.item.topic.name} · {e.item.contentType}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
