import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useCallback, useEffect, useRef, type ReactNode } from "react";
import { GATED_CLASS } from "./ArticleBody";
import { primaryButton } from "./controls.css";
import { ErrorSummary } from "./forms/ErrorSummary";
import * as forms from "./forms/forms.css";
import { useSpecForm } from "./forms/useSpecForm";
import * as css from "./subscriber-tools.css";

export interface Note {
  id: string;
  /** The body block the note is about, counted from 0 (shown counted from 1). */
  paragraph: number;
  quote: string;
  note: string;
}

interface Props {
  articleUrl: string;
  notes: Note[];
  paragraphs: { value: number; label: string }[];
  limits: { quote: number; note: number };
  notice: string | null;
  result: Parameters<typeof useSpecForm>[2];
}

/** The reader's notes on this article, each with a Delete button, and the form that adds one. */
export function ArticleNotes({ articleUrl, notes, paragraphs, limits, notice, result }: Props) {
  return (
    <section id="notes" aria-labelledby="notes-heading" className={css.section} data-no-print="">
      <h2 id="notes-heading" className={css.heading}>
        Your notes
      </h2>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      {notes.length === 0 ? (
        <p>You have no notes on this article yet.</p>
      ) : (
        <ol className={css.notes}>
          {notes.map((n) => (
            <li key={n.id} className={css.note}>
              <NoteText note={n} />
              <Form method="post" action={articleUrl} preventScrollReset>
                <input type="hidden" name="intent" value="delete-note" />
                <input type="hidden" name="noteId" value={n.id} />
                <button type="submit" className={forms.secondaryButton}>
                  Delete note<span className="visually-hidden"> on paragraph {n.paragraph + 1}</span>
                </button>
              </Form>
            </li>
          ))}
        </ol>
      )}
      {/* Keyed by the count, so the form starts empty again after a note is saved. */}
      <AddNoteForm key={notes.length} articleUrl={articleUrl} paragraphs={paragraphs} limits={limits} result={result} />
    </section>
  );
}

export function NoteText({ note }: { note: Pick<Note, "paragraph" | "quote" | "note"> }) {
  return (
    <>
      <p className={css.noteMeta}>Paragraph {note.paragraph + 1}</p>
      {note.quote ? <blockquote className={css.noteQuote}>{note.quote}</blockquote> : null}
      <p className={css.noteText}>{note.note}</p>
    </>
  );
}

function AddNoteForm({ articleUrl, paragraphs, limits, result }: Omit<Props, "notes" | "notice">) {
  const count = paragraphs.length;
  const loadSchema = useCallback(() => import("~/app/lib/library/notes-form").then((forms) => forms.noteSchema(count)), [count]);
  const { form, fields, summary, submitDisabled } = useSpecForm("add-note", loadSchema, result, { paragraph: "0" });
  const update = form.update;
  useSelectionInBody((paragraph, quote) => {
    update({ name: fields.paragraph.name, value: String(paragraph) });
    update({ name: fields.quote.name, value: quote.slice(0, limits.quote) });
  });
  const { key: selectKey, ...selectProps } = getSelectProps(fields.paragraph);
  const { key: quoteKey, ...quoteProps } = getInputProps(fields.quote, { type: "text", ariaDescribedBy: fields.quote.descriptionId });
  const { key: noteKey, ...noteProps } = getTextareaProps(fields.note, { ariaDescribedBy: fields.note.descriptionId });
  return (
    <>
      <h3>Add a note</h3>
      <ErrorSummary items={summary} />
      <Form method="post" action={articleUrl} {...getFormProps(form)} noValidate preventScrollReset className={forms.form}>
        <input type="hidden" name="intent" value="add-note" />
        <Field meta={fields.paragraph} label="Paragraph">
          <select key={selectKey} {...selectProps} className={forms.input}>
            {paragraphs.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        <Field meta={fields.quote} label="Quoted passage (optional)" hint="Select words in the article to quote them here, or type them.">
          <input key={quoteKey} {...quoteProps} className={forms.input} maxLength={limits.quote} />
        </Field>
        <Field meta={fields.note} label="Note" hint={`Up to ${limits.note.toLocaleString("en-US")} characters.`}>
          <textarea key={noteKey} {...noteProps} className={`${forms.input} ${css.textarea}`} maxLength={limits.note} />
        </Field>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Save note
          </button>
        </div>
      </Form>
    </>
  );
}

function Field({ meta, label, hint, children }: { meta: FieldMetadata<unknown>; label: string; hint?: string; children: ReactNode }) {
  const error = meta.errors?.[0];
  return (
    <div className={error ? `${forms.field} ${forms.withError}` : forms.field}>
      <label className={forms.label} htmlFor={meta.id}>
        {label}
      </label>
      {hint ? (
        <p id={meta.descriptionId} className={forms.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={meta.errorId} className={forms.fieldError}>
          {error}
        </p>
      ) : null}
      {children}
    </div>
  );
}

// The body's blocks in the order the server numbers them: the preview's, then the gated part's
// either side of the promo (which is not a block).
const BODY_BLOCKS = `:scope > div:not(.${GATED_CLASS}) > *, :scope > .${GATED_CLASS} > div > *`;

/** Calls back with the block and the words when the reader selects text in the article body. */
function useSelectionInBody(onSelect: (paragraph: number, quote: string) => void) {
  const callback = useRef(onSelect);
  callback.current = onSelect;
  useEffect(() => {
    const body = document.getElementById("article-body");
    if (!body) return;
    const read = () => {
      const selection = document.getSelection();
      const quote = selection?.toString().replace(/\s+/g, " ").trim();
      const anchor = selection?.anchorNode;
      if (!quote || !anchor) return;
      const paragraph = [...body.querySelectorAll(BODY_BLOCKS)].findIndex((block) => block.contains(anchor));
      if (paragraph !== -1) callback.current(paragraph, quote);
    };
    body.addEventListener("mouseup", read);
    body.addEventListener("keyup", read);
    return () => {
      body.removeEventListener("mouseup", read);
      body.removeEventListener("keyup", read);
    };
  }, []);
}
