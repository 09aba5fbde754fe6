import { getApiIssue, updateApiIssue } from "~/server/desk/api-issues";
import { getIssue, updateIssue } from "~/app/lib/api/groups/admin-issues";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { apiError, apiJson, apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

const NOT_FOUND = "No issue has this id.";

/** GET and PATCH /desk/api/issues/{id} (the Admin API): a stale version gets 409. */
const route = apiRoute(
  serve(getIssue, async ({ request, context, params }) => {
    const issue = await getApiIssue(await requestContext({ request, context }).db(), params.id, config().siteUrl);
    return issue ? apiJson(issue) : apiError(404, "not_found", NOT_FOUND);
  }),
  serve(updateIssue, async ({ request, context, params, body, key }) => {
    const db = await requestContext({ request, context }).db();
    const saved = await updateApiIssue(db, keyEditor(key), params.id, body, config().siteUrl, new Date());
    if (saved.ok) return apiJson(saved.issue);
    if (saved.reason === "missing") return apiError(404, "not_found", NOT_FOUND);
    if (saved.reason === "invalid") return invalidFields(saved.fieldErrors);
    return apiError(
      409,
      "conflict",
      `The issue was changed by ${saved.by} at ${saved.at}, after version ${body.version}: nothing was saved.`,
      {
        current: saved.current,
        by: saved.by,
        at: saved.at,
      },
    );
  }),
);

export const loader = route.loader;
export const action = route.action;
