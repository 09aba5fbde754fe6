import { courseLinks } from "~/app/lib/api/groups/learning";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { courseLinksAnswer } from "~/app/lib/api/learning.server";

/** POST /api/hmm/course/link (spec 7): course addresses by slug. */
const route = apiRoute(serve(courseLinks, courseLinksAnswer));

export const loader = route.loader;
export const action = route.action;
