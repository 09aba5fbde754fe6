import { createAuthor, listAuthors } from "~/server/desk/catalogue/authors";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiAuthor, createRow, listRows } from "~/app/lib/api/admin-catalogue.server";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET and POST /desk/api/authors (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.listAuthors, listRows(listAuthors, apiAuthor)),
  serve(endpoints.createAuthor, createRow("author", createAuthor, apiAuthor, "/desk/api/authors")),
);

export const loader = route.loader;
export const action = route.action;
