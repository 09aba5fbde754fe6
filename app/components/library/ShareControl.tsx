import { Link } from "@remix-run/react";
import type { LibraryContentType } from "~/server/db/schema";
import { lazy, Suspense, useState, type MouseEvent } from "react";
import { toolButton } from "../controls.css";
import { ToolIcon } from "../ToolIcon";
import * as css from "./library.css";

// The flyout (and the form libraries its e-mail form needs) loads only when a reader opens it.
const loadFlyout = () => import("./ShareFlyout");
const ShareFlyout = lazy(loadFlyout);

/**
 * "Share": a link to the share page; with JS the same tabs (Facebook first) in a flyout, the
 * e-mail form posting through a fetcher to the share page's action.
 */
export function ShareControl({ type, id, title, url }: { type: LibraryContentType; id: number; title: string; url: string }) {
  const [open, setOpen] = useState(false);
  const page = `/share?type=${type}&id=${id}`;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setOpen((o) => !o);
  };
  return (
    <span className={css.saveControl}>
      <Link to={page} onClick={onClick} onPointerEnter={loadFlyout} onFocus={loadFlyout} aria-expanded={open} className={toolButton}>
        <ToolIcon name="share" />
        Share<span className="visually-hidden"> {title}</span>
      </Link>
      {open ? (
        <Suspense fallback={<span role="status">Loading…</span>}>
          <ShareFlyout page={page} type={type} id={id} title={title} url={url} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </span>
  );
}
