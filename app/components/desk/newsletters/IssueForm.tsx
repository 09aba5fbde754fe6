import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import { AddArticle, ChosenArticles, type ChosenArticle } from "~/app/components/desk/curation/ChosenArticles";
import * as curation from "~/app/components/desk/curation/curation.css";
import { ErrorSummary, unsummarised } from "~/app/components/forms/ErrorSummary";
import { TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import type { issueFormSchema } from "~/app/lib/desk/newsletter-forms";
import { ISSUE_MAX_ARTICLES } from "~/shared/newsletter-issue-vocabulary";

const loadSchema: SchemaLoader<typeof issueFormSchema> = () => import("~/app/lib/desk/newsletter-forms").then((m) => m.issueFormSchema);

export interface IssueDraft {
  version: number;
  subject: string;
  preheader: string;
  intro: string;
  articles: ChosenArticle[];
}

/**
 * A draft's subject, preheader, introduction and articles in order. Every button saves the whole
 * form at the version the page was read at (the articles' buttons with their change), so it all
 * works without JS.
 */
export function IssueForm({
  issue,
  recent,
  result,
}: {
  issue: IssueDraft;
  recent: { title: string; path: string }[];
  result: SubmissionResult<string[]> | undefined;
}) {
  const { form, fields, summary } = useSpecForm("newsletter-issue", loadSchema, result, {
    subject: issue.subject,
    preheader: issue.preheader,
    intro: issue.intro,
  });
  const formError = unsummarised(form.errors, summary);
  return (
    <div className={curation.section}>
      <ErrorSummary items={summary} formErrorId={formError ? undefined : form.errorId} />
      {formError ? (
        <p className={forms.formMessage} id={form.errorId}>
          {formError}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className={curation.section}>
        {/* Enter in a one-line field saves (the first submit button in the form is the one Enter presses). */}
        <button type="submit" name="intent" value="save" className={curation.enterButton} tabIndex={-1} aria-hidden="true">
          Save
        </button>
        <input type="hidden" name="version" value={issue.version} />
        <TextField meta={fields.subject} label="Subject" hint="The mail's subject line, up to 200 characters." />
        <TextField
          meta={fields.preheader}
          label="Preheader (optional)"
          hint="What inboxes show after the subject, before the mail is opened; up to 200 characters."
        />
        <TextAreaField
          meta={fields.intro}
          label="Introduction"
          rows={8}
          hint={
            <>
              After &ldquo;Hello&rdquo; and the reader&rsquo;s first name. Markdown subset: paragraphs separated by a blank line,{" "}
              <code>## Subheading</code>, <code>- item</code> lists, <code>&gt; quote</code> and <code>[words](/2024/05/its-slug)</code>{" "}
              links to the site or to https addresses. No HTML or images.
            </>
          }
        />
        <section aria-labelledby="issue-articles-heading" className={curation.section}>
          <h2 id="issue-articles-heading" className={curation.sectionHeading}>
            Articles, in the mail&rsquo;s order
          </h2>
          <p className={forms.hint}>
            Each with its title, summary and link, never its text; up to {ISSUE_MAX_ARTICLES}. Each button saves the whole form.
          </p>
          <ChosenArticles articles={issue.articles} label={(index) => `Article ${index + 1}`} empty="No articles: add one below." />
          <AddArticle meta={fields.add} recent={recent} label="Add an article at the end" button="Add" />
        </section>
        <div className={forms.actions}>
          <button type="submit" name="intent" value="save" className={primaryButton}>
            Save the draft
          </button>
        </div>
      </Form>
    </div>
  );
}
