import { Form } from "@remix-run/react";
import type { ImageRef } from "~/shared/uploaded-images";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { ResponsiveImage } from "~/app/components/ResponsiveImage";
import * as css from "./picture-editor.css";

export interface PictureEditorProps {
  /** "image" or "photo", as the page's words name it. */
  noun: string;
  current: ImageRef | null;
  /** What readers see without an upload, and what the page says of it. */
  fallback: { image?: { src: string; alt: string; width: number; height: number }; text: string };
  sizes: string;
  /** A portrait: shown smaller. */
  narrow?: boolean;
  notice: string | null;
  error: { message: string; alt: string } | null;
}

const ACCEPT = "image/jpeg,image/png,image/webp";

/**
 * The picture an article or author has, a form that uploads a new one (multipart, no script
 * needed) and one that removes it.
 */
export function PictureEditor({ noun, current, fallback, sizes, narrow = false, notice, error }: PictureEditorProps) {
  return (
    <>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      <section aria-labelledby="current-heading" className={prose.section}>
        <h2 id="current-heading">Now</h2>
        <figure className={narrow ? css.narrowFigure : css.figure}>
          {current ? (
            <ResponsiveImage image={current} sizes={sizes} largest className={css.picture} />
          ) : fallback.image ? (
            <img
              className={css.picture}
              src={fallback.image.src}
              alt={fallback.image.alt}
              width={fallback.image.width}
              height={fallback.image.height}
            />
          ) : null}
          <figcaption className={css.caption}>
            {current ? (current.alt ? `Alt text: ${current.alt}` : "No alt text: screen readers say nothing of it.") : fallback.text}
          </figcaption>
        </figure>
      </section>
      <section aria-labelledby="upload-heading" className={prose.section}>
        <h2 id="upload-heading">{current ? `Upload a new ${noun}` : `Upload a ${noun}`}</h2>
        {error ? (
          <p className={forms.formMessage} role="alert" id="upload-error">
            {error.message}
          </p>
        ) : null}
        <Form method="post" encType="multipart/form-data" className={forms.form} aria-describedby={error ? "upload-error" : undefined}>
          <input type="hidden" name="intent" value="upload" />
          <div className={forms.field}>
            <label className={forms.label} htmlFor="picture-file">
              {noun.charAt(0).toUpperCase() + noun.slice(1)}
            </label>
            <span className={forms.hint} id="picture-file-hint">
              A JPEG, PNG or WebP image of up to 20 MB. It is resized for every screen; its location and camera data are removed.
            </span>
            <input
              id="picture-file"
              className={css.fileInput}
              type="file"
              name="file"
              accept={ACCEPT}
              required
              aria-describedby="picture-file-hint"
            />
          </div>
          <div className={forms.field}>
            <label className={forms.label} htmlFor="picture-alt">
              Alt text
            </label>
            <span className={forms.hint} id="picture-alt-hint">
              What the {noun} shows, for readers who cannot see it.
            </span>
            <input
              id="picture-alt"
              className={forms.input}
              name="alt"
              maxLength={300}
              defaultValue={error?.alt ?? ""}
              aria-describedby="picture-alt-hint"
            />
          </div>
          <div className={forms.actions}>
            <button type="submit" className={primaryButton}>
              Upload
            </button>
          </div>
        </Form>
      </section>
      {current ? (
        <section aria-labelledby="remove-heading" className={prose.section}>
          <h2 id="remove-heading">Remove</h2>
          <p>{fallback.image ? `Readers see the drawn art again.` : `Readers see no ${noun}.`}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="remove" />
            <button type="submit" className={forms.secondaryButton}>
              Remove the {noun}
            </button>
          </Form>
        </section>
      ) : null}
    </>
  );
}
