import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  applyMove,
  articlesInOrder,
  findArticle,
  getDeskReadingList,
  listMove,
  recentArticles,
  saveReadingList,
  type DeskReadingList,
} from "~/server/desk/curation";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { AddArticle, ChosenArticles } from "~/app/components/desk/curation/ChosenArticles";
import { ReadingListFields } from "~/app/components/desk/curation/ReadingListFields";
import * as curation from "~/app/components/desk/curation/curation.css";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk } from "~/app/lib/desk/access.server";
import { changedSinceOpened } from "~/app/lib/desk/conflict";
import { ADD_INVALID, readingListFormSchema } from "~/app/lib/desk/curation-forms";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One reading list: its fields and its articles in order. Every button saves the whole form
// (the fields, and the list with the button's change) at the version the page was read at; a
// list saved meanwhile by someone else is never overwritten: both versions are shown.

const loadSchema: SchemaLoader<typeof readingListFormSchema> = () =>
  import("~/app/lib/desk/curation-forms").then((m) => m.readingListFormSchema);

const UNKNOWN_INTENT = "That button is not one this page has: open the page again.";
const SAVED: Record<string, string> = {
  created: "Reading list created. Add its articles below.",
  saved: "Saved. Readers see the change within seconds.",
};

/** The list's id from the address; anything but a whole number is no list (404). */
function listId(value: string | undefined): number {
  return value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "reading-lists.list");
  const db = await requestContext({ request, context }).db();
  const [list, recent] = await Promise.all([getDeskReadingList(db, listId(params.listId)), recentArticles(db)]);
  if (!list) notFound();
  return {
    list: { ...list, updatedAt: list.updatedAt && deskTime(list.updatedAt) },
    recent: recent.map((a) => ({ title: a.title, path: a.path })),
    saved: SAVED[new URL(request.url).searchParams.get("saved") ?? ""] ?? null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "reading-lists.edit");
  const form = await readForm(request);
  const id = listId(params.listId);
  const db = await requestContext({ request, context }).db();
  const submission = parseWithZod(form, { schema: readingListFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { name, slug, description, version, item, add } = submission.value;
  if (version === undefined) return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
  const intent = String(form.get("intent") ?? "save");
  let ids = item;
  const move = listMove(intent);
  if (move) ids = applyMove(item, move);
  else if (intent !== "save" && intent !== "add") return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
  // Save adds what the field names too, so that pressing Enter in it adds the article.
  if (!move && add) {
    const article = await findArticle(db, add);
    if (!article) return rejectForm(submission, { fieldErrors: { add: [`No article has the address or slug “${add}”.`] } });
    if (item.includes(article.id)) return rejectForm(submission, { fieldErrors: { add: [`“${article.title}” is already in the list.`] } });
    ids = [...item, article.id];
  } else if (intent === "add") return rejectForm(submission, { fieldErrors: { add: [ADD_INVALID] } });
  const saved = await saveReadingList(db, auditActor(staff), id, version, { name, slug, description, articleIds: ids }, new Date());
  if (saved.ok) return redirect(`/desk/reading-lists/${id}?saved=saved`, 303);
  if (saved.reason === "missing") notFound();
  if (saved.reason === "invalid") {
    const { items, ...fieldErrors } = saved.fieldErrors;
    return rejectForm(submission, { fieldErrors: items ? { ...fieldErrors, add: items } : fieldErrors });
  }
  const yours = { name, slug, description, items: (await articlesInOrder(db, ids)).map((a) => a.title) };
  return data(
    {
      failed: true,
      conflict: {
        message: `${changedSinceOpened("reading list", saved.by, saved.at)} Your version was not saved: the form now shows the list as it is, and yours is below it, to copy from.`,
        yours,
      },
    },
    { status: 409 },
  );
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Reading list: ${args.data.list.name}` : "Reading list");

export default function DeskReadingList() {
  const { list, recent, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const conflict = actionData && "conflict" in actionData ? actionData.conflict : undefined;
  return (
    <DeskPage title={list.name}>
      <p className={css.muted}>
        <Link to="/desk/reading-lists">All reading lists</Link> · <a href={list.path}>{list.path}</a> · version {list.version}
        {list.updatedAt ? ` · last changed by ${list.updatedBy} at ${list.updatedAt}` : " · as seeded"}
      </p>
      {saved && !actionData ? (
        <p className={forms.success} role="status">
          {saved}
        </p>
      ) : null}
      {conflict ? (
        <p className={forms.formMessage} role="alert">
          {conflict.message}
        </p>
      ) : null}
      {/* A fresh form for each version: after a conflict it shows the list as it is now. */}
      <ListForm key={list.version} list={list} recent={recent} result={conflict ? undefined : result} />
      {conflict ? <YourVersion yours={conflict.yours} /> : null}
    </DeskPage>
  );
}

type Shown = Omit<DeskReadingList, "updatedAt"> & { updatedAt: string | null };

function ListForm({
  list,
  recent,
  result,
}: {
  list: Shown;
  recent: { title: string; path: string }[];
  result: Parameters<typeof useSpecForm>[2];
}) {
  const { form, fields, summary } = useSpecForm("reading-list", loadSchema, result, {
    name: list.name,
    slug: list.slug,
    description: list.description,
  });
  return (
    <>
      <ErrorSummary items={summary} />
      {form.errors?.[0] ? (
        <p className={forms.formMessage} id={form.errorId}>
          {form.errors[0]}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className={curation.section}>
        {/* Enter in any field saves (the first submit button in the form is the one Enter presses). */}
        <button type="submit" name="intent" value="save" className={curation.enterButton} tabIndex={-1} aria-hidden="true">
          Save
        </button>
        <input type="hidden" name="version" value={list.version} />
        <ReadingListFields fields={fields} />
        <section aria-labelledby="items-heading" className={curation.section}>
          <h2 id="items-heading" className={curation.sectionHeading}>
            Articles, in reading order
          </h2>
          <p className={css.muted}>Each button saves the whole form, the title and description too.</p>
          <ChosenArticles articles={list.items} label={(index) => `Article ${index + 1}`} empty="No articles yet: add the first below." />
          <AddArticle meta={fields.add} recent={recent} label="Add an article at the end" button="Add" />
        </section>
        <div className={forms.actions}>
          <button type="submit" name="intent" value="save" className={primaryButton}>
            Save the list
          </button>
        </div>
      </Form>
    </>
  );
}

function YourVersion({ yours }: { yours: { name: string; slug: string; description: string; items: string[] } }) {
  return (
    <section aria-labelledby="yours-heading" className={curation.theirs}>
      <h2 id="yours-heading" className={curation.sectionHeading}>
        Your version (not saved)
      </h2>
      <dl>
        <dt>Title</dt>
        <dd>{yours.name}</dd>
        <dt>Slug</dt>
        <dd>{yours.slug}</dd>
        <dt>Description</dt>
        <dd>{yours.description || "(none)"}</dd>
        <dt>Articles</dt>
        <dd>
          <ol>
            {yours.items.map((title, index) => (
              <li key={`${index}:${title}`}>{title}</li>
            ))}
          </ol>
        </dd>
      </dl>
    </section>
  );
}
