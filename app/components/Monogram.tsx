import { monogramOf } from "~/shared/monogram";
import * as css from "./article.css";

/** An author's initials in a disc, in place of a photo not uploaded; the name beside it says who. */
export function Monogram({ name }: { name: string }) {
  const { initials, colour } = monogramOf(name);
  return (
    <svg className={css.authorPhoto} viewBox="0 0 64 64" width="64" height="64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="32" fill={colour} />
      <text x="32" y="41" textAnchor="middle" fontSize="24" fontWeight="700" fill="#fff" fontFamily="Georgia, 'DejaVu Serif', serif">
        {initials}
      </text>
    </svg>
  );
}
