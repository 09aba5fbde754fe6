import { createTopic, listDeskTopics } from "~/server/desk/catalogue/topics";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiTopic, createRow, listRows } from "~/app/lib/api/admin-catalogue.server";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET and POST /desk/api/topics (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.listTopics, listRows(listDeskTopics, apiTopic)),
  serve(endpoints.createTopic, createRow("topic", createTopic, apiTopic, "/desk/api/topics")),
);

export const loader = route.loader;
export const action = route.action;
