import { orderedAnswer } from "~/app/lib/api/content.server";
import { orderedStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/ordered/{number}/{size}?format=json (spec 7): the reader's purchase history, as my library lists it. */
const route = apiRoute(serve(orderedStream, orderedAnswer));

export const loader = route.loader;
export const action = route.action;
