import type { ActionFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, invalidFields } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor } from "~/app/lib/desk/access.server";
import { ARTICLE_FORM_BYTES, articleFromParam, saveArticleForm } from "~/app/lib/desk/articles.server";
import { changedSinceOpened } from "~/app/lib/desk/conflict";
import { deskEndpoint, onlyMethod } from "~/app/lib/desk/endpoints.server";
import { readForm } from "~/app/lib/forms/guard.server";

/**
 * POST /desk/articles/{id}/autosave (ADR 085): the edit page's form, as its Save button posts
 * it, saved by the same path on the same version check, while the article is a draft or
 * unpublished. JSON answers: 200 with the new version; 400 `invalid_input` with `fields`; 409
 * `conflict` with `current`, `by` and `at` when someone saved since (nothing is written); 409
 * `wrong_state` for a published or scheduled article.
 */
export const action = deskEndpoint("articles.edit", async ({ request, context, params }: ActionFunctionArgs, staff) => {
  const form = await readForm(request, { maxBytes: ARTICLE_FORM_BYTES });
  const db = await requestContext({ request, context }).db();
  const article = await articleFromParam(db, params.id);
  const attempt = await saveArticleForm(db, auditActor(staff), article, form, "autosave", new Date());
  if (attempt.saved === null) {
    if (attempt.formError) return invalidFields({ version: [attempt.formError] });
    const errors = Object.entries(attempt.submission.reply().error ?? {}).filter((entry): entry is [string, string[]] => entry[1] !== null);
    return invalidFields(Object.fromEntries(errors));
  }
  const { saved } = attempt;
  if (saved.ok) return apiJson({ version: saved.article.version, savedAt: saved.article.updatedAt });
  switch (saved.reason) {
    case "missing":
      return apiError(404, "not_found", "No article has this id.");
    case "invalid":
      return invalidFields(saved.fieldErrors as Record<string, string[]>);
    case "state":
      return apiError(409, "wrong_state", saved.message, { status: saved.status });
    case "conflict": {
      const { current, by, at } = saved.conflict;
      return apiError(409, "conflict", changedSinceOpened("article", by, at), { current, by, at });
    }
  }
});

export const loader = deskEndpoint("articles.edit", onlyMethod("POST"));
