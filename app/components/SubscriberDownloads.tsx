import { CHART_PNG_SCALE, CHART_SIZE } from "~/shared/art-sizes";
import * as css from "./subscriber-tools.css";

const pngSize = `${(CHART_SIZE.width * CHART_PNG_SCALE).toLocaleString("en-US")} × ${(CHART_SIZE.height * CHART_PNG_SCALE).toLocaleString("en-US")} pixels`;

/** Plain links: the files come as attachments, so the page stays where it is. */
export function SubscriberDownloads({ reprintPath, chartPaths }: { reprintPath: string; chartPaths: { svg: string; png: string } | null }) {
  return (
    <section aria-labelledby="downloads-heading" className={css.section} data-no-print="">
      <h2 id="downloads-heading" className={css.heading}>
        Downloads
      </h2>
      <ul className={css.linkList}>
        <li>
          <a href={reprintPath}>Download PDF reprint</a>
        </li>
        {chartPaths ? (
          <>
            <li>
              <a href={chartPaths.svg}>Download this chart (SVG)</a>
            </li>
            <li>
              <a href={chartPaths.png}>Download this chart (PNG, {pngSize})</a>
            </li>
          </>
        ) : null}
      </ul>
    </section>
  );
}
