import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Suspense, type ReactNode } from "react";
import type { ArticleChoices } from "~/server/desk/article-choices";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary, unsummarised } from "~/app/components/forms/ErrorSummary";
import { Shell } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { useHydrated } from "~/app/components/useHydrated";
import type { articleFormSchema } from "~/app/lib/desk/article-form";
import { lazyEnhancement } from "~/app/lib/http/lazy-enhancement";
import type { Autosave } from "./enhancements/ArticleFormEnhancements";
import * as css from "./articles.css";

// The article's every field, as the seed files have them. Lists are comma-separated text with
// the known names offered (a datalist), so the form is whole without JS. With JS, once the page
// has hydrated, a chunk of its own adds the preview pane, the authors' and topics' comboboxes
// and autosave (ADR 085) to the places kept for them here, empty without it.

const loadSchema: SchemaLoader<typeof articleFormSchema> = () => import("~/app/lib/desk/article-form").then((m) => m.articleFormSchema);
const Enhancements = lazyEnhancement(() => import("./enhancements/ArticleFormEnhancements"));

type Meta = FieldMetadata<string | undefined>;

function Input({
  meta,
  label,
  hint,
  list,
  type = "text",
  className,
  children,
}: {
  meta: Meta;
  label: string;
  hint?: ReactNode;
  list?: string;
  type?: "text" | "date";
  className?: string;
  /** After the control: where an enhancement shows what it adds. */
  children?: ReactNode;
}) {
  const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <Shell meta={meta} label={label} hint={hint}>
      <input key={key} {...props} list={list} className={`${forms.input} ${className ?? ""}`} spellCheck={type === "text"} />
      {children}
    </Shell>
  );
}

function TextArea({
  meta,
  label,
  hint,
  rows,
  className,
}: {
  meta: Meta;
  label: string;
  hint?: ReactNode;
  rows: number;
  className?: string;
}) {
  const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <Shell meta={meta} label={label} hint={hint}>
      <textarea key={key} {...props} rows={rows} className={`${forms.input} ${css.textarea} ${className ?? ""}`} />
    </Shell>
  );
}

function Streams({ meta, streams }: { meta: FieldMetadata<string | string[] | undefined>; streams: ArticleChoices["streams"] }) {
  const error = meta.errors?.[0];
  const initial = meta.initialValue;
  const ticked = Array.isArray(initial) ? initial : typeof initial === "string" ? [initial] : [];
  return (
    <fieldset
      className={error ? `${css.streams} ${forms.withError}` : css.streams}
      aria-describedby={error ? `${meta.errorId} ${meta.descriptionId}` : meta.descriptionId}
    >
      <legend>Extra streams</legend>
      {error ? (
        <p id={meta.errorId} className={forms.fieldError}>
          {error}
        </p>
      ) : null}
      {streams.map(({ value, label }, index) => {
        const id = index === 0 ? meta.id : `${meta.id}-${value}`;
        return (
          <div key={value} className={forms.checkbox}>
            <input type="checkbox" id={id} name={meta.name} value={value} defaultChecked={ticked.includes(value)} />
            <label htmlFor={id}>{label}</label>
          </div>
        );
      })}
      <p id={meta.descriptionId} className={`${forms.hint} ${css.streamsHint}`}>
        Every article is in The Latest and its topics&apos; streams; a visual-library piece is always in Visual Library.
      </p>
    </fieldset>
  );
}

interface Props {
  /** "create" makes a draft; "save" saves the article at `version`. */
  intent: "create" | "save";
  version?: number;
  values: Record<string, string | string[]>;
  result: SubmissionResult<string[]> | null | undefined;
  choices: ArticleChoices;
  /** The page shows the errors (or a conflict's notice) above its columns itself. */
  summaryAbove?: boolean;
  submitLabel: string;
  /** Beside the save button: what happens to a published article. */
  saveNote?: string;
  /** An article that exists: where its form is autosaved, and whether its state lets it be. */
  autosave?: Autosave;
}

export function ArticleForm({ intent, version, values, result, choices, summaryAbove = false, submitLabel, saveNote, autosave }: Props) {
  const { form, fields: all, summary, submitDisabled } = useSpecForm("article", loadSchema, result, values as never);
  const hydrated = useHydrated();
  // Each control sends one text (the schema also takes a name sent twice, as a hostile post may).
  const fields = all as unknown as Record<Exclude<keyof typeof all, "streams">, Meta> & Pick<typeof all, "streams">;
  const formError = summaryAbove ? undefined : unsummarised(form.errors, summary);
  return (
    <div className={css.form}>
      {summaryAbove ? null : <ErrorSummary items={summary} formErrorId={formError ? undefined : form.errorId} />}
      <Form method="post" {...getFormProps(form)} noValidate className={css.form}>
        <input type="hidden" name="intent" value={intent} />
        {version !== undefined ? <input key={version} type="hidden" name="version" defaultValue={version} /> : null}
        {formError ? (
          <p className={forms.formMessage} id={form.errorId}>
            {formError}
          </p>
        ) : null}
        <fieldset className={css.section}>
          <legend>Headline and text</legend>
          <Input meta={fields.title} label="Title" className={css.headline} />
          <TextArea meta={fields.dek} label="Dek" hint="One sentence under the headline." rows={2} />
          <Input meta={fields.subDek} label="Sub-dek (optional)" />
          <TextArea meta={fields.summary} label="Summary" hint="Two or three sentences for cards, feeds and search." rows={3} />
          <div className={css.bodyRow}>
            <TextArea
              meta={fields.body}
              label="Body"
              rows={24}
              className={css.bodyText}
              hint={
                <p className={css.markdownNote}>
                  Markdown subset: paragraphs separated by a blank line, <code>## Subheading</code>, <code>- item</code> lists and{" "}
                  <code>&gt; pull quote</code>. No HTML, links or images.
                </p>
              }
            />
            <div id={`${form.id}-preview`} className={css.slot} />
          </div>
        </fieldset>
        <fieldset className={css.section}>
          <legend>Filing</legend>
          <div className={css.grid}>
            <Input meta={fields.slug} label="Slug" hint="Lowercase words and hyphens; part of the address." />
            <Input
              meta={fields.published}
              label="Publication date"
              type="date"
              className={forms.inputWidth.medium}
              hint="The date the article carries (YYYY-MM-DD)."
            />
          </div>
          <Input meta={fields.authors} label="Authors" list="article-authors" hint="Author slugs in byline order, separated by commas.">
            <div id={`${fields.authors.id}-picked`} className={css.slot} />
          </Input>
          <datalist id="article-authors">
            {choices.authors.map((author) => (
              <option key={author.slug} value={author.slug} label={author.name} />
            ))}
          </datalist>
          <Input
            meta={fields.topics}
            label="Topics"
            list="article-topics"
            hint="Topic names separated by commas; the first is the primary topic and must be a subject."
          >
            <div id={`${fields.topics.id}-picked`} className={css.slot} />
          </Input>
          <datalist id="article-topics">
            {choices.topics.map((topic) => (
              <option key={topic.name} value={topic.name} label={topic.subject ? "Subject" : "Topic"} />
            ))}
          </datalist>
          <div className={css.grid}>
            <Input meta={fields.contentType} label="Content type" list="article-types" hint="Such as Article or Interview." />
            <datalist id="article-types">
              {choices.contentTypes.map((type) => (
                <option key={type} value={type} />
              ))}
            </datalist>
            <TierSelect meta={fields.tier} tiers={choices.tiers} />
          </div>
          <Streams meta={fields.streams} streams={choices.streams} />
        </fieldset>
        <fieldset className={css.section}>
          <legend>Series (optional)</legend>
          <div className={css.gridThree}>
            <Input meta={fields.series} label="Series slug" />
            <Input meta={fields.seriesTitle} label="Series title" />
            <Input meta={fields.seriesPart} label="Part" />
          </div>
        </fieldset>
        <div className={css.saveBar}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            {submitLabel}
          </button>
          {saveNote ? <span className={forms.hint}>{saveNote}</span> : null}
          {/* In the page from the start, so that screen readers follow them before anything is said. */}
          {autosave ? <span id={`${form.id}-autosave`} aria-live="polite" className={forms.hint} /> : null}
          <span id={`${form.id}-said`} aria-live="polite" className="visually-hidden" />
        </div>
        {hydrated ? (
          <Suspense fallback={null}>
            <Enhancements formId={form.id} choices={choices} autosave={autosave} />
          </Suspense>
        ) : null}
      </Form>
    </div>
  );
}

function TierSelect({ meta, tiers }: { meta: Meta; tiers: ArticleChoices["tiers"] }) {
  const { key, ...props } = getSelectProps(meta);
  return (
    <Shell meta={meta} label="Tier">
      <select key={key} {...props} className={forms.input}>
        {tiers.map(({ value, label }) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </Shell>
  );
}
