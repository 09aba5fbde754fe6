import { getDeskTopic, updateTopic } from "~/server/desk/catalogue/topics";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiTopic, getRow, updateRow } from "~/app/lib/api/admin-catalogue.server";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET and PATCH /desk/api/topics/{id} (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.getTopic, getRow("topic", getDeskTopic, apiTopic)),
  serve(endpoints.updateTopic, updateRow("topic", updateTopic, apiTopic)),
);

export const loader = route.loader;
export const action = route.action;
