import { Link, useLocation } from "@remix-run/react";
import { Suspense, useEffect, useRef, useState, type MouseEvent } from "react";
import { readingListPath } from "~/shared/urls";
import { lazyEnhancement } from "~/app/lib/http/lazy-enhancement";
import { useHydrated } from "~/app/components/useHydrated";

// The dialog's code loads when the pointer or focus reaches a list's link; until then, and
// without JS, the link leads to the list's page.
const ReadingListDialog = lazyEnhancement(() => import("./ReadingListDialog"));

/**
 * Links to reading lists ("THIS ARTICLE APPEARS IN"). Each is a link to the list's page; with
 * JS a plain click opens that page's list in a dialog over the article instead, and closing it
 * gives focus back to the link.
 */
export function ReadingListLinks({ lists, className }: { lists: { name: string; slug: string }[]; className?: string }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const [open, setOpen] = useState<{ slug: string; locationKey: string } | null>(null);
  const opener = useRef<HTMLAnchorElement | null>(null);

  // Following a link out of the dialog closes it, leaving focus to the new page.
  useEffect(() => {
    if (open && open.locationKey !== location.key) {
      opener.current = null;
      setOpen(null);
    }
  }, [open, location.key]);

  const onClick = (event: MouseEvent<HTMLAnchorElement>, slug: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    opener.current = event.currentTarget;
    setOpen({ slug, locationKey: location.key });
  };
  const onClose = () => {
    setOpen(null);
    if (opener.current?.isConnected) opener.current.focus();
  };

  return (
    <>
      <ul className={className}>
        {lists.map((list) => (
          <li key={list.slug}>
            <Link
              to={readingListPath(list.slug)}
              onClick={(event) => onClick(event, list.slug)}
              onPointerEnter={ReadingListDialog.preload}
              onFocus={ReadingListDialog.preload}
              aria-haspopup={hydrated ? "dialog" : undefined}
            >
              {list.name}
            </Link>
          </li>
        ))}
      </ul>
      {open ? (
        <Suspense fallback={null}>
          <ReadingListDialog slug={open.slug} onClose={onClose} />
        </Suspense>
      ) : null}
    </>
  );
}
