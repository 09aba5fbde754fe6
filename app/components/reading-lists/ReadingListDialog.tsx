import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import { readingListPath } from "~/shared/urls";
import type { loader as listLoader } from "~/app/routes/reading-lists_.$slug";
import * as modal from "~/app/components/AuthModal.css";
import * as css from "./reading-lists.css";
import { ReadingListView } from "./ReadingListView";

/**
 * A reading list's page shown over the article (ReadingListLinks loads this lazily): its data is
 * the page's own, loaded with a fetcher. A modal dialog: focus moves to its title and stays
 * inside, Escape or Close closes it, and the page behind does not scroll meanwhile.
 */
export default function ReadingListDialog({ slug, onClose }: { slug: string; onClose: () => void }) {
  const fetcher = useFetcher<typeof listLoader>();
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const titleId = useId();

  const { load } = fetcher;
  useEffect(() => {
    load(readingListPath(slug));
  }, [load, slug]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    document.documentElement.classList.add(modal.scrollLocked);
    title.current?.focus();
    return () => document.documentElement.classList.remove(modal.scrollLocked);
  }, []);

  const list = fetcher.data?.list.slug === slug ? fetcher.data.list : null;
  return (
    <dialog ref={dialog} className={css.dialog} aria-labelledby={titleId} onClose={onClose}>
      <div className={modal.header}>
        <h2 id={titleId} ref={title} className={modal.title} tabIndex={-1}>
          {list ? list.name : "Reading list"}
        </h2>
        <button type="button" className={modal.closeButton} onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <div className={modal.body}>
        {list ? (
          <>
            <p className={css.dialogIntro}>{list.description}</p>
            <ReadingListView list={list} headingLevel={3} />
          </>
        ) : (
          <p role="status" className={modal.loading}>
            Loading the list…
          </p>
        )}
      </div>
    </dialog>
  );
}
