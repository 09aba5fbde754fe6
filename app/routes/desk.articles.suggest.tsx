import type { LoaderFunctionArgs } from "@remix-run/node";
import { suggestChoices } from "~/server/desk/article-choices";
import { SUGGEST_TERM_MAX, SUGGESTED_LISTS, type SuggestedList } from "~/shared/list-suggestions";
import { apiJson, invalidFields } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { deskEndpoint, onlyMethod } from "~/app/lib/desk/endpoints.server";

const isList = (value: string | null): value is SuggestedList => SUGGESTED_LISTS.some((list) => list === value);

/**
 * GET /desk/articles/suggest?list=authors|topics&term= (ADR 085): the authors or topics that
 * match what an editor typed into the article form's combobox, `{ options: [{ value, label,
 * hint }] }`; 400 `invalid_input` for another list or a term too long to be a name.
 */
export const loader = deskEndpoint("articles.edit", async ({ request, context }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  const list = url.searchParams.get("list");
  const term = url.searchParams.get("term") ?? "";
  if (!isList(list)) return invalidFields({ list: [`Ask for ${SUGGESTED_LISTS.join(" or ")}.`] });
  if (term.length > SUGGEST_TERM_MAX) return invalidFields({ term: [`Send at most ${SUGGEST_TERM_MAX} characters.`] });
  const options = await suggestChoices(await requestContext({ request, context }).db(), list, term);
  return apiJson({ options });
});

export const action = deskEndpoint("articles.edit", onlyMethod("GET"));
