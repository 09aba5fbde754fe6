import * as css from "./subscriber-tools.css";

/** Plain links: the files come as attachments, so the page stays where it is. */
export function SubscriberDownloads({ reprintPath, chartPath }: { reprintPath: string; chartPath: string | null }) {
  return (
    <section aria-labelledby="downloads-heading" className={css.section} data-no-print="">
      <h2 id="downloads-heading" className={css.heading}>
        Downloads
      </h2>
      <ul className={css.linkList}>
        <li>
          <a href={reprintPath}>Download PDF reprint</a>
        </li>
        {chartPath ? (
          <li>
            <a href={chartPath}>Download this chart</a>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
