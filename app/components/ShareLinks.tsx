import type { MouseEvent } from "react";
import * as css from "./video.css";

/** Where a page can be shared: the spec's networks (Facebook first, the default) and e-mail. */
export function shareTargets(url: string, title: string): { network: string; href: string; popup: boolean }[] {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { network: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}`, popup: true },
    { network: "X", href: `https://x.com/intent/post?url=${u}&text=${t}`, popup: true },
    { network: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`, popup: true },
    { network: "Email", href: `mailto:?subject=${t}&body=${u}`, popup: false },
  ];
}

// With JS, a network's share page opens in a 700 by 450 window (spec); without, in a new tab.
function openPopup(event: MouseEvent<HTMLAnchorElement>) {
  const opened = window.open(event.currentTarget.href, "share", "width=700,height=450");
  if (!opened) return;
  opened.opener = null;
  event.preventDefault();
}

export function ShareLinks({ url, title, heading }: { url: string; title: string; heading: string }) {
  return (
    <section aria-labelledby="share-heading">
      <h2 id="share-heading" className={css.toolHeading}>
        {heading}
      </h2>
      <ul className={css.shareList}>
        {shareTargets(url, title).map((t) => (
          <li key={t.network}>
            {t.popup ? (
              <a href={t.href} target="_blank" rel="noopener noreferrer" onClick={openPopup}>
                {t.network}
                <span className="visually-hidden"> (opens in a new window)</span>
              </a>
            ) : (
              <a href={t.href}>{t.network}</a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
