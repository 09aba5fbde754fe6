import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import * as article from "~/app/components/article.css";
import * as css from "./enhancements.css";

/** The pause in typing after which the preview is drawn again. */
export const PREVIEW_WAIT_MS = 400;

interface Shown {
  html: string;
  words: number;
}

async function render(body: string, signal: AbortSignal): Promise<Shown> {
  const response = await fetch("/desk/articles/preview", {
    method: "POST",
    body: new URLSearchParams({ body }),
    signal,
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`preview answered ${response.status}`);
  return (await response.json()) as Shown;
}

/**
 * The body as the article page shows it (ADR 085), beside the text box: drawn by the server with
 * the site's Markdown renderer (every text escaped) and the article page's styles, again each
 * time the editor pauses. The newest text's answer wins; an older one still on its way is cancelled.
 */
export function BodyPreview({ body, slot, headingId }: { body: HTMLTextAreaElement; slot: HTMLElement; headingId: string }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    const draw = () => {
      controller?.abort();
      const mine = (controller = new AbortController());
      render(body.value, mine.signal).then(
        (answer) => {
          setShown(answer);
          setFailed(false);
        },
        () => {
          if (!mine.signal.aborted) setFailed(true);
        },
      );
    };
    const typed = () => {
      clearTimeout(timer);
      timer = setTimeout(draw, PREVIEW_WAIT_MS);
    };
    draw();
    body.addEventListener("input", typed);
    return () => {
      clearTimeout(timer);
      controller?.abort();
      body.removeEventListener("input", typed);
    };
  }, [body]);

  return createPortal(
    <section className={css.preview} aria-labelledby={headingId}>
      <h2 id={headingId} className={css.previewHeading}>
        Preview
      </h2>
      <p className={css.previewNote}>
        {failed
          ? "The preview could not be brought up to date; it shows the text as it was."
          : `The body as readers will see it${shown ? `, ${shown.words.toLocaleString("en")} words` : ""}. It follows your typing.`}
      </p>
      {/* Made by the server from the body's Markdown subset, every text escaped (blocksToHtml). */}
      <div className={article.body} dangerouslySetInnerHTML={{ __html: shown?.html ?? "" }} />
    </section>,
    slot,
  );
}
