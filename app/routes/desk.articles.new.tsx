import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { articleChoices } from "~/server/desk/article-choices";
import { createArticle } from "~/server/desk/articles";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { ArticleForm } from "~/app/components/desk/articles/ArticleForm";
import * as css from "~/app/components/desk/articles/articles.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk } from "~/app/lib/desk/access.server";
import { articleFormSchema } from "~/app/lib/desk/article-form";
import { ARTICLE_FORM_BYTES } from "~/app/lib/desk/articles.server";
import { setDeskFlash } from "~/app/lib/desk/flash.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new article: saved as a draft at version 1, then edited, published or scheduled on its own page.

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "articles.edit");
  const choices = await articleChoices(await requestContext({ request, context }).db());
  return { choices, today: new Date().toISOString().slice(0, 10) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.edit");
  const form = await readForm(request, { maxBytes: ARTICLE_FORM_BYTES });
  if (form.get("intent") !== "create") notFound();
  const submission = parseWithZod(form, { schema: articleFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const db = await requestContext({ request, context }).db();
  const created = await createArticle(db, auditActor(staff), submission.value, new Date());
  if (!created.ok) return rejectForm(submission, { fieldErrors: created.fieldErrors as Record<string, string[]> }, 422);
  const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: "Saved as a draft." });
  return redirect(`/desk/articles/${created.article.id}`, { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction = (args) => deskMeta(args, "New article");

export default function NewArticle() {
  const { choices, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title="New article">
      <p className={css.crumbs}>
        <Link to="/desk/articles">Articles</Link> · Saved as a draft: nothing reaches readers until it is published.
      </p>
      <ArticleForm
        intent="create"
        values={{ contentType: "Article", tier: "article", published: today, streams: [] }}
        result={actionData?.result}
        choices={choices}
        submitLabel="Save draft"
      />
    </DeskPage>
  );
}
