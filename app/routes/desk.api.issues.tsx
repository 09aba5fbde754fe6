import { createApiIssue, listApiIssues } from "~/server/desk/api-issues";
import { createIssue, listIssues } from "~/app/lib/api/groups/admin-issues";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { apiJson, apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and POST /desk/api/issues (the Admin API). */
const route = apiRoute(
  serve(listIssues, async ({ request, context, query }) => {
    const db = await requestContext({ request, context }).db();
    return apiJson(await listApiIssues(db, { year: query.year, page: query.page ?? 1 }, config().siteUrl));
  }),
  serve(createIssue, async ({ request, context, body, key }) => {
    const db = await requestContext({ request, context }).db();
    const made = await createApiIssue(db, keyEditor(key), body, config().siteUrl, new Date());
    if (made.ok) return apiJson(made.issue, { status: 201, headers: { Location: `/desk/api/issues/${made.issue.id}` } });
    if (made.reason === "invalid") return invalidFields(made.fieldErrors);
    throw new Error(`a new issue answered ${made.reason}`);
  }),
);

export const loader = route.loader;
export const action = route.action;
