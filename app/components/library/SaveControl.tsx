import { Link } from "@remix-run/react";
import type { LibraryContentType } from "~/server/db/schema";
import { lazy, Suspense, useState, type MouseEvent } from "react";
import { useRootData } from "~/app/lib/http/root-data";
import { cardTool, toolButton } from "../controls.css";
import { ToolIcon } from "../ToolIcon";
import * as css from "./library.css";

// The flyout loads only when a reader opens it.
const loadFlyout = () => import("./SaveFlyout");
const SaveFlyout = lazy(loadFlyout);

/**
 * "Save" on an article or video. A link to the save page (guests: to registration, which the
 * sign-in modal opens in place); with JS, for a signed-in reader, the same form opens as a
 * flyout beside the link and posts through a fetcher. On a page it is one of the tools; on a card
 * it is the card's quiet line.
 */
export function SaveControl({ type, id, title, look }: { type: LibraryContentType; id: number; title: string; look: "tool" | "card" }) {
  const root = useRootData();
  const [open, setOpen] = useState(false);
  const savePath = `/my-library/save?type=${type}&id=${id}`;
  const href = root?.user ? savePath : `/register?redirectTo=${encodeURIComponent(savePath)}`;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!root?.user || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setOpen((o) => !o);
  };
  return (
    <span className={css.saveControl}>
      <Link
        to={href}
        rel="nofollow"
        onClick={onClick}
        onPointerEnter={root?.user ? loadFlyout : undefined}
        onFocus={root?.user ? loadFlyout : undefined}
        aria-expanded={root?.user ? open : undefined}
        className={look === "card" ? cardTool : toolButton}
      >
        <ToolIcon name="save" />
        Save<span className="visually-hidden"> {title} to My Library</span>
      </Link>
      {open ? (
        <Suspense fallback={<span role="status">Loading…</span>}>
          <SaveFlyout savePath={savePath} title={title} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </span>
  );
}
