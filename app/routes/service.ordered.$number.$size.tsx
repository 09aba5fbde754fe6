import { orderedAnswer } from "../lib/api/content.server";
import { orderedStream } from "../lib/api/groups/content";
import { apiRoute, serve } from "../lib/api/handler.server";

/** GET /service/ordered/{number}/{size}?format=json (spec 7): the reader's purchase history, as my library lists it. */
const route = apiRoute(serve(orderedStream, orderedAnswer));

export const loader = route.loader;
export const action = route.action;
