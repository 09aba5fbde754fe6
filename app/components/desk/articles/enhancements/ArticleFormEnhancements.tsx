import { useState } from "react";
import type { ArticleChoices } from "~/server/desk/article-choices";
import { AutosaveStatus } from "./AutosaveStatus";
import { BodyPreview } from "./BodyPreview";
import { ListCombobox, type Described } from "./ListCombobox";

/** An article that exists is autosaved at `path`, unless `off` says why not. */
export interface Autosave {
  path: string;
  off: string | null;
}

interface Props {
  /** The article form's id: its fields' and places' ids start with it. */
  formId: string;
  choices: ArticleChoices;
  autosave?: Autosave;
}

/** The elements the form rendered for the enhancements: its fields and the empty places beside them. */
function formElements(formId: string) {
  const byId = <T extends HTMLElement>(suffix: string, type: new () => T) => {
    const element = document.getElementById(`${formId}${suffix}`);
    return element instanceof type ? element : null;
  };
  return {
    form: byId("", HTMLFormElement),
    authors: byId("-authors", HTMLInputElement),
    authorsPlace: byId("-authors-picked", HTMLElement),
    topics: byId("-topics", HTMLInputElement),
    topicsPlace: byId("-topics-picked", HTMLElement),
    body: byId("-body", HTMLTextAreaElement),
    previewPlace: byId("-preview", HTMLElement),
    said: byId("-said", HTMLElement),
    status: byId("-autosave", HTMLElement),
  };
}

/**
 * What JS adds to the article form (ADR 085), loaded in a chunk of its own once the page has
 * hydrated: the comboboxes for the authors and topics, the preview pane beside the body and
 * autosave. The comboboxes come first: autosave reads the form as they leave it.
 */
export default function ArticleFormEnhancements({ formId, choices, autosave }: Props) {
  const [at] = useState(() => formElements(formId));
  const [known] = useState(() => ({
    authors: new Map(choices.authors.map((a) => [a.slug, { label: a.name, hint: a.slug }])) as Described,
    topics: new Map(choices.topics.map((t) => [t.name, { label: t.name, hint: t.subject ? "Subject" : "Topic" }])) as Described,
  }));
  const { form, said, status } = at;
  return (
    <>
      {at.authors && at.authorsPlace && said ? (
        <ListCombobox list="authors" input={at.authors} slot={at.authorsPlace} said={said} known={known.authors} />
      ) : null}
      {at.topics && at.topicsPlace && said ? (
        <ListCombobox list="topics" input={at.topics} slot={at.topicsPlace} said={said} known={known.topics} />
      ) : null}
      {at.body && at.previewPlace ? <BodyPreview body={at.body} slot={at.previewPlace} headingId={`${formId}-preview-heading`} /> : null}
      {autosave && form && status ? (
        <AutosaveStatus form={form} region={status} path={autosave.off === null ? autosave.path : null} off={autosave.off} />
      ) : null}
    </>
  );
}
