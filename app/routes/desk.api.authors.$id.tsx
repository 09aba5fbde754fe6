import { getAuthor, updateAuthor } from "~/server/desk/catalogue/authors";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiAuthor, getRow, updateRow } from "~/app/lib/api/admin-catalogue.server";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET and PATCH /desk/api/authors/{id} (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.getAuthor, getRow("author", getAuthor, apiAuthor)),
  serve(endpoints.updateAuthor, updateRow("author", updateAuthor, apiAuthor)),
);

export const loader = route.loader;
export const action = route.action;
