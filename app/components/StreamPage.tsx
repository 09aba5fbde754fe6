import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import type { loadStreamPage } from "~/app/lib/content/stream-page.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { socialCard } from "~/shared/social-cards";
import { MaintenanceNotice } from "./MaintenanceNotice";
import { StreamList } from "./StreamList";
import * as css from "./prose.css";

type StreamData = Awaited<ReturnType<typeof loadStreamPage>>["data"];

/** Page number suffix keeps titles unique across a stream's pages. */
export const streamMeta: MetaFunction = ({ data, matches, location }) => {
  const d = data as StreamData | undefined;
  if (!d) return [];
  const page = d.stream?.page.number ?? 1;
  const suffix = page > 1 ? ` (page ${page})` : "";
  const path = `/${d.slug}${page > 1 ? `?page=${page}` : ""}`;
  // A topic's page is the stream at /topic/subject/{slug}; the others are named streams.
  const topic = /^topic\/subject\/([a-z0-9-]+)$/.exec(d.slug)?.[1];
  const tags = seo({
    title: `${d.title}${suffix}`,
    description: d.description,
    path,
    siteUrl: siteUrlFrom(matches),
    card: topic ? socialCard("topic", topic, d.title) : socialCard("stream", d.slug, d.title),
  });
  return new URLSearchParams(location.search).has("loaded") ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};

/** `kicker` goes above the page's heading (a topic's subject), `headerExtra` under its description (a topic's follow button). */
export function StreamPage({ kicker, headerExtra }: { kicker?: ReactNode; headerExtra?: ReactNode } = {}) {
  const d = useLoaderData<StreamData>();
  const listHeadingId = `${d.listId ?? "stream"}-heading`;
  return (
    <>
      <header className={css.pageHeading}>
        {kicker}
        <h1>{d.title}</h1>
        <p className={css.lede}>{d.description}</p>
        {headerExtra}
      </header>
      <section id={d.listId ?? undefined} aria-labelledby={listHeadingId}>
        <h2 id={listHeadingId} className="visually-hidden">
          {d.listId ? "Browse reports" : `${d.title}: all items`}
        </h2>
        {d.maintenance ? (
          <MaintenanceNotice />
        ) : (
          <StreamList stream={d.stream} unlimited={d.unlimited} emptyText="Nothing has been published here yet." />
        )}
      </section>
    </>
  );
}
