import { Link } from "@remix-run/react";
import type { LibraryContentType } from "~/server/db/schema";
import { useId, useState, type FormEvent, type MouseEvent } from "react";
import { networkShareUrl, NETWORK_NAMES, SOCIAL_NETWORKS, type SocialNetwork } from "~/shared/share-links";
import { useRootData } from "~/app/lib/http/root-data";
import * as css from "./video.css";
import { notice } from "./library/library.css";
import { toolButton } from "./controls.css";

const POPUP = "share-window";
// Spec: with JS a network's share page opens in a 700 by 450 window.
const POPUP_FEATURES = "width=700,height=450";
const SHARED_LABEL: Record<SocialNetwork, string> = { facebook: "Facebook", twitter: "Twitter", linkedin: "LinkedIn" };

/**
 * Share buttons. A signed-in reader's post through our share action, which records the share in
 * their sharing history and goes on to the network's page (in a new window; with JS a popup);
 * a guest gets "Connect with" links straight to the networks. E-mail is the share page's tab.
 */
export function ShareLinks({
  type,
  id,
  url,
  title,
  heading,
  only,
}: {
  type: LibraryContentType;
  id: number;
  url: string;
  title: string;
  heading: string;
  /** One network alone (the share flyout's tab), without the e-mail link. */
  only?: SocialNetwork;
}) {
  const root = useRootData();
  const headingId = useId();
  const [shared, setShared] = useState<SocialNetwork | null>(null);
  const sharePage = (tab: string) => `/share?type=${type}&id=${id}&tab=${tab}`;
  const openPopup = (event: FormEvent<HTMLFormElement> | MouseEvent<HTMLAnchorElement>, network: SocialNetwork) => {
    const opened = window.open(event.currentTarget instanceof HTMLAnchorElement ? event.currentTarget.href : "", POPUP, POPUP_FEATURES);
    if (!opened) return;
    opened.opener = null;
    if (event.currentTarget instanceof HTMLAnchorElement) event.preventDefault();
    else setShared(network);
  };
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className={css.toolHeading}>
        {heading}
      </h2>
      <ul className={css.shareList}>
        {(only ? [only] : SOCIAL_NETWORKS).map((network) => (
          <li key={network}>
            {root?.user ? (
              <form method="post" action={sharePage(network)} target={POPUP} onSubmit={(e) => openPopup(e, network)}>
                <input type="hidden" name="intent" value="social" />
                <input type="hidden" name="provider" value={network} />
                <input type="hidden" name="type" value={type} />
                <input type="hidden" name="id" value={id} />
                <button type="submit" className={toolButton}>
                  Share on {NETWORK_NAMES[network]}
                  <span className="visually-hidden"> (opens in a new window)</span>
                </button>
              </form>
            ) : (
              <a
                href={networkShareUrl(network, url, title)}
                target={POPUP}
                rel="noopener noreferrer"
                onClick={(e) => openPopup(e, network)}
                className={toolButton}
              >
                Connect with {NETWORK_NAMES[network]}
                <span className="visually-hidden"> (opens in a new window)</span>
              </a>
            )}
          </li>
        ))}
        {only ? null : (
          <li>
            <Link to={sharePage("email")} className={toolButton}>
              E-mail
            </Link>
          </li>
        )}
      </ul>
      {shared ? (
        <p role="status" className={notice}>
          Shared via {SHARED_LABEL[shared]}
        </p>
      ) : null}
    </section>
  );
}
