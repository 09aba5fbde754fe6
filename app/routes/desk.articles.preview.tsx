import type { ActionFunctionArgs } from "@remix-run/node";
import { blocksToHtml, bodyWordCount, parseBody } from "~/server/content/markdown";
import { ARTICLE_FIELD_MESSAGES, BODY_MAX } from "~/shared/article-fields";
import * as css from "~/app/components/article.css";
import { apiJson, invalidFields } from "~/app/lib/api/handler.server";
import { ARTICLE_FORM_BYTES } from "~/app/lib/desk/articles.server";
import { deskEndpoint, onlyMethod } from "~/app/lib/desk/endpoints.server";
import { readForm } from "~/app/lib/forms/guard.server";

/**
 * POST /desk/articles/preview (ADR 085): a body as the article page renders it, for the edit
 * form's preview pane: the same Markdown subset, every text escaped (blocksToHtml), the same
 * pull-quote class. Nothing is stored. `{ html, words }`, or 400 `invalid_input` for a body
 * the form would refuse as too long, or none.
 */
export const action = deskEndpoint("articles.edit", async ({ request }: ActionFunctionArgs) => {
  const body = (await readForm(request, { maxBytes: ARTICLE_FORM_BYTES })).get("body");
  if (typeof body !== "string" || body.length > BODY_MAX) return invalidFields({ body: [ARTICLE_FIELD_MESSAGES.body] });
  return apiJson({ html: blocksToHtml(parseBody(body), { quoteClass: css.pullQuote }), words: bodyWordCount(body) });
});

export const loader = deskEndpoint("articles.edit", onlyMethod("POST"));
