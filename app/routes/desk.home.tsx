import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { applyMove, chooseHomeStories, findArticle, homeCuration, HOME_PICKS, listMove, recentArticles } from "~/server/desk/curation";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { AddArticle, ChosenArticles } from "~/app/components/desk/curation/ChosenArticles";
import * as curation from "~/app/components/desk/curation/curation.css";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, requireDesk } from "~/app/lib/desk/access.server";
import { changedSinceOpened } from "~/app/lib/desk/conflict";
import { ADD_INVALID, homeStoriesSchema } from "~/app/lib/desk/curation-forms";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// The home page's lead and pinned stories (issue 38): the editor's choice, in order, the first
// the lead. Every button is a submit button of one form, which carries the list it shows and the
// version it was read at; a choice made meanwhile by someone else is never overwritten.

const loadSchema: SchemaLoader<typeof homeStoriesSchema> = () => import("~/app/lib/desk/curation-forms").then((m) => m.homeStoriesSchema);

const UNKNOWN_INTENT = "That button is not one this page has: open the page again.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "home.curate");
  const db = await requestContext({ request, context }).db();
  const [current, recent] = await Promise.all([homeCuration(db), recentArticles(db)]);
  return {
    current: { ...current, updatedAt: current.updatedAt && deskTime(current.updatedAt) },
    recent: recent.map((a) => ({ title: a.title, path: a.path })),
    picks: HOME_PICKS,
    saved: new URL(request.url).searchParams.get("saved") === "1",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "home.curate");
  const form = await readForm(request);
  const db = await requestContext({ request, context }).db();
  const submission = parseWithZod(form, { schema: homeStoriesSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { version, item, add } = submission.value;
  const intent = String(form.get("intent") ?? "");
  let ids: number[];
  if (intent === "add") {
    if (!add) return rejectForm(submission, { fieldErrors: { add: [ADD_INVALID] } });
    const article = await findArticle(db, add);
    if (!article) return rejectForm(submission, { fieldErrors: { add: [`No article has the address or slug “${add}”.`] } });
    if (item.includes(article.id)) return rejectForm(submission, { fieldErrors: { add: [`“${article.title}” is already chosen.`] } });
    ids = [...item, article.id];
  } else {
    const move = listMove(intent);
    if (!move) return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
    ids = applyMove(item, move);
  }
  const result = await chooseHomeStories(db, auditActor(staff), version, ids, new Date());
  if (result.ok) return redirect("/desk/home?saved=1", 303);
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: { add: [result.message] } });
  return rejectForm(
    submission,
    {
      formErrors: [
        `${changedSinceOpened("choice of stories", result.by, result.at)} Your change was not made: here they are now; make it again if it is still needed.`,
      ],
    },
    409,
  );
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, "Home page");

export default function DeskHomeCuration() {
  const { current, recent, picks, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, summary } = useSpecForm("home-stories", loadSchema, actionData?.result);
  const place = (index: number) => (index === 0 ? "Lead story" : `Pinned story ${index}`);
  return (
    <DeskPage title="Home page">
      <p className={css.muted}>
        The lead story and up to {picks - 1} pinned stories, in order. A slot without a published choice shows the newest article, as the
        home page does when nothing is chosen.{" "}
        {current.updatedAt ? `Last changed by ${current.updatedBy} at ${current.updatedAt}.` : "Nothing has been chosen yet."}
      </p>
      {saved && !actionData ? (
        <p className={forms.success} role="status">
          Saved. The home page shows it within seconds.
        </p>
      ) : null}
      <ErrorSummary items={summary} />
      {form.errors?.[0] ? (
        <p className={forms.formMessage} id={form.errorId}>
          {form.errors[0]}
        </p>
      ) : null}
      {/* The key makes a fresh form for each version, so the hidden fields follow what was saved. */}
      <Form method="post" {...getFormProps(form)} key={current.version} noValidate className={curation.section}>
        <input type="hidden" name="version" value={current.version} />
        {/* Enter in the field adds its article (the first submit button in the form is the one Enter presses). */}
        {current.stories.length < picks ? (
          <button type="submit" name="intent" value="add" className={curation.enterButton} tabIndex={-1} aria-hidden="true">
            Add
          </button>
        ) : null}
        <section aria-labelledby="chosen-heading" className={curation.section}>
          <h2 id="chosen-heading" className={curation.sectionHeading}>
            Chosen stories
          </h2>
          <ChosenArticles articles={current.stories} label={place} empty="None: the home page leads with the newest articles." />
        </section>
        <section aria-labelledby="add-heading" className={curation.section}>
          <h2 id="add-heading" className={curation.sectionHeading}>
            Add a story
          </h2>
          {current.stories.length < picks ? (
            <AddArticle
              meta={fields.add}
              recent={recent}
              label={current.stories.length === 0 ? "Article for the lead story" : "Article to pin"}
              button={current.stories.length === 0 ? "Make it the lead" : "Pin it"}
            />
          ) : (
            <p className={css.muted}>All {picks} places are taken: remove a story to choose another.</p>
          )}
        </section>
      </Form>
    </DeskPage>
  );
}
